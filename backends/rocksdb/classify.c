/* RocksDB's status strings (Status::ToString: "<code>: <message>", the
 * subcode's text in between) mapped to error classes. Kept apart from
 * rocksdb.c so its tests need no store. */
#include <string.h>

#include "rocksdb_backend.h"

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

enum rpb_status rpb_rocksdb_classify(const char *msg)
{
	if (!msg)
		return RPB_IO;
	/* ENOSPC arrives as errno's text ("IO error: No space left on device:
	 * While appending to file: ...") or as the subcode kNoSpace ("IO error:
	 * No space left on device" alone, the background error that then makes
	 * the database refuse writes); a quota as EDQUOT's text. */
	if (strstr(msg, "No space left on device") || starts(msg, "IO error: No space") ||
	    strstr(msg, "Disk quota exceeded"))
		return RPB_DISK_FULL;
	if (starts(msg, "Corruption:"))
		return RPB_CORRUPT;
	if (starts(msg, "NotFound:"))
		return RPB_NOT_FOUND;
	/* An optimistic transaction that lost to a concurrent commit (Busy), or
	 * whose check ran out of memtable history (TryAgain): retry it. */
	if (starts(msg, "Resource busy") || starts(msg, "Operation failed. Try again.") ||
	    starts(msg, "Operation aborted"))
		return RPB_CONFLICT;
	if (starts(msg, "Operation timed out"))
		return RPB_TXN_TIMEOUT;
	if (starts(msg, "Invalid argument:") || starts(msg, "Not implemented:"))
		return RPB_INVALID;
	if (strstr(msg, "Cannot allocate memory") || starts(msg, "Memory limit reached"))
		return RPB_NOMEM;
	return RPB_IO; /* "IO error: ..." and anything unforeseen */
}
