/* The MariaDB backend's table and its pure error classifier (testable
 * without a server). */
#ifndef RPB_MARIADB_BACKEND_H
#define RPB_MARIADB_BACKEND_H

#include "store.h"

extern const struct rpb_backend rpb_backend_mariadb;

/* Maps a MariaDB server or Connector/C error number and its message (may
 * be NULL; it carries the OS errno of a failed write, "Errcode: 28") to an
 * error class. */
enum rpb_status rpb_mariadb_classify(unsigned code, const char *message);

#endif
