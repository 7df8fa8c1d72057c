chmod 0644 args
