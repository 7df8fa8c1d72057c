# find_package(MariaDBClient): MariaDB Connector/C through its pkg-config file
# (libmariadb, Debian's libmariadb-dev) as the target PkgConfig::MariaDBClient.
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
	pkg_check_modules(MariaDBClient QUIET IMPORTED_TARGET libmariadb)
endif()
