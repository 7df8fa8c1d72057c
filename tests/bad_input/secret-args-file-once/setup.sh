chmod 0600 args
