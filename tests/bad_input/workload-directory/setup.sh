mkdir w.ini
