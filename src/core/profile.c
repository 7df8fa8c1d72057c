/* The profiles' names, in enum rpb_profile's order (a file of its own: the
 * patterns name a profile without depending on the workload parser). */
#include <stddef.h>

#include "profile.h"

const char *const rpb_profile_names[] = {"durable", "fedora-4.5", NULL};
