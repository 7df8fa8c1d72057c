mkfifo w.ini
