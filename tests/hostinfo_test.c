/* The mount of a path, from the text of /proc/self/mountinfo. */
#include <criterion/criterion.h>
#include <string.h>

#include "hostinfo.h"

static const char mountinfo[] =
	"22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw,discard\n"
	"30 22 0:26 / /tmp rw,nosuid,nodev shared:5 - tmpfs tmpfs rw,size=1024k\n"
	"31 22 254:16 / /srv/data rw,noatime - xfs /dev/vdb rw,attr2,inode64\n"
	"32 22 0:27 / /srv/data\\040b rw - tmpfs none rw\n"
	/* A later mount over /tmp covers the first one. */
	"40 30 0:40 / /tmp ro,relatime shared:9 - tmpfs over ro,size=2048k\n"
	"garbage line without a separator\n";

static struct rpb_mount m;

Test(hostinfo, mount_longest_point_wins)
{
	cr_assert_eq(rpb_mount_find(mountinfo, "/srv/data/store", &m), 0);
	cr_assert_str_eq(m.point, "/srv/data");
	cr_assert_str_eq(m.fs_type, "xfs");
	cr_assert_str_eq(m.source, "/dev/vdb");
	cr_assert_str_eq(m.options, "rw,noatime");
	cr_assert_str_eq(m.super_options, "rw,attr2,inode64");
}

Test(hostinfo, mount_point_is_a_whole_component)
{
	/* /srv/database is not under /srv/data. */
	cr_assert_eq(rpb_mount_find(mountinfo, "/srv/database", &m), 0);
	cr_assert_str_eq(m.point, "/");
	cr_assert_str_eq(m.fs_type, "ext4");
}

Test(hostinfo, mount_point_escapes_are_undone)
{
	cr_assert_eq(rpb_mount_find(mountinfo, "/srv/data b/x", &m), 0);
	cr_assert_str_eq(m.point, "/srv/data b");
	cr_assert_str_eq(m.fs_type, "tmpfs");
}

Test(hostinfo, the_last_mount_over_a_point_wins)
{
	cr_assert_eq(rpb_mount_find(mountinfo, "/tmp/x", &m), 0);
	cr_assert_str_eq(m.source, "over");
	cr_assert_str_eq(m.options, "ro,relatime");
}

Test(hostinfo, no_mount_found)
{
	cr_assert_neq(rpb_mount_find("", "/x", &m), 0);
	cr_assert_neq(rpb_mount_find("1 2 3:4 / /only rw - ext4 a rw\n", "/other", &m), 0);
}

Test(hostinfo, real_mount_of_cwd)
{
	cr_assert_eq(rpb_mount_of(".", &m), 0, "no mount found for . in /proc/self/mountinfo");
	cr_assert_eq(m.point[0], '/');
	cr_assert(*m.fs_type);
	cr_assert_neq(rpb_mount_of("/nonexistent/rpbench", &m), 0);
}
