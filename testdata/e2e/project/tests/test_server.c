#include <stdio.h>
#include <string.h>

/* Test code: findings here are reported with lower confidence. */
static void test_copy(void)
{
	char small[4];
	strcpy(small, "overflowing test string");
	(void)small;
}

int main(void)
{
	test_copy();
	return 0;
}
