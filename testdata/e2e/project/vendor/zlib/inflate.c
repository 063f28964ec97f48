/* Vendored code is skipped by default. */
void vendored(char *d, const char *s) { strcpy(d, s); gets(d); }
