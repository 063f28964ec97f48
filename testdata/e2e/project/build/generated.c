void generated(char *d) { gets(d); }
