/* chroot jails. */
#include <stdio.h>
#include <unistd.h>

int enter_jail(const char *dir)
{
	if (chroot(dir) != 0) // want "c.file.chroot-jail"
		return -1;
	return setuid(65534);
}

int enter_jail_fixed(const char *dir)
{
	if (chroot(dir) != 0) // safe "c.file.chroot-jail"
		return -1;
	if (chdir("/") != 0)
		return -1;
	return setuid(65534);
}

int enter_jail_cd_first(const char *dir)
{
	if (chdir(dir) != 0)
		return -1;
	if (chroot(".") != 0) // safe "c.file.chroot-jail"
		return -1;
	return setuid(65534);
}

int enter_jail_same(void)
{
	if (chdir("/var/empty") != 0 || chroot("/var/empty") != 0) // safe "c.file.chroot-jail"
		return -1;
	return setuid(65534);
}

/* chdir("/") before chroot leaves the working directory outside. */
int enter_jail_wrong_order(const char *dir)
{
	if (chdir("/") != 0)
		return -1;
	if (chroot(dir) != 0) // want "c.file.chroot-jail"
		return -1;
	return setuid(65534);
}

/* chdir(".") after chroot stays where it was: outside the jail. */
int enter_jail_dot(const char *dir)
{
	if (chroot(dir) != 0) // want "c.file.chroot-jail"
		return -1;
	if (chdir(".") != 0)
		return -1;
	return setuid(65534);
}

/* Any absolute directory after chroot is inside the jail. */
int enter_jail_home(const char *dir)
{
	if (chroot(dir) != 0) // safe "c.file.chroot-jail"
		return -1;
	if (chdir("/home/app") != 0)
		return -1;
	return setuid(65534);
}
