mkdir given
