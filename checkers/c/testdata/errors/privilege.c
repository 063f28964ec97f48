/* Dropping root after binding a privileged port. */
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* Flawed: nothing is checked, and the uid goes first. */
void drop_privileges(const struct passwd *pw)
{
	chroot("/var/empty"); // want "c.errors.unchecked-privilege"
	chdir("/"); // want "c.errors.unchecked-io"
	setuid(pw->pw_uid); // want "c.errors.unchecked-privilege"
	setgid(pw->pw_gid); // want "c.errors.unchecked-privilege"
}

/* Flawed: checked, but the group change cannot work after the uid drop. */
int drop_checked_wrong_order(const struct passwd *pw)
{
	if (setuid(pw->pw_uid) != 0) // safe "c.errors.unchecked-privilege"
		return -1;
	if (setgid(pw->pw_gid) != 0) // want "c.errors.unchecked-privilege"
		return -1;
	return 0;
}

/* Fixed twin: groups first, every result checked. */
void drop_privileges_fixed(const struct passwd *pw)
{
	if (setgroups(0, NULL) != 0 || setgid(pw->pw_gid) != 0 || // safe "c.errors.unchecked-privilege"
	    setuid(pw->pw_uid) != 0) {
		perror("drop privileges");
		exit(1);
	}
}

/* Fixed twin: a temporary drop is undone (seteuid(0)) before the group
 * changes. */
int with_user_then_group(uid_t uid, gid_t gid)
{
	if (seteuid(uid) != 0)
		return -1;
	if (seteuid(0) != 0)
		return -1;
	if (setegid(gid) != 0) // safe "c.errors.unchecked-privilege"
		return -1;
	return 0;
}

/* Flawed: the key file may stay world-readable. */
void protect_key(const char *path)
{
	chmod(path, 0600); // want "c.errors.unchecked-privilege"
	if (chown(path, 0, 0) != 0) // safe "c.errors.unchecked-privilege"
		perror("chown");
}
