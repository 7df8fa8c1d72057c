/* How this program was built, for result.json's manifest: written at every
 * build by src/core/buildinfo.cmake. */
#ifndef RPB_BUILDINFO_H
#define RPB_BUILDINFO_H

/* The git commit of the source tree, "-dirty" appended when tracked files
 * were changed; "unknown" when built outside a git checkout (a tarball). */
extern const char rpb_build_commit[];
/* "GNU 12.2.0": the compiler's id and version. */
extern const char rpb_build_compiler[];
/* CMAKE_BUILD_TYPE: Release, RelWithDebInfo, Debug, ... */
extern const char rpb_build_type[];
/* The C flags of the build type and every compile option: -O2 -g -Wall ... */
extern const char rpb_build_flags[];

#endif
