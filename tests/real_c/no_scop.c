/* No SCoP here: polyc copies the file byte for byte, whatever it holds
   (an #include inside an initialiser, in a branch not compiled; a
   trailing space, a tab, no newline at the end). */
#include <stdio.h>
#define GREETING "hello"	
#ifdef WITH_TABLE
const char *table[] = {
#include "table.list"
  NULL
};
#endif
int main(void) { printf("%s\n", GREETING); return 0; } 
int trailer;