# cmake --install: the programs in bin/, their shared files in
# share/rpbench (workloads, record templates, the scripts users run), man
# pages and docs; and CPack's Debian package of the same files.

install(DIRECTORY data/workloads data/records data/schema DESTINATION ${RPB_SHARE_DIR})
# Every server backend's throwaway-server script (SERVER_SCRIPT, which
# rpbench compare --start-servers starts) and quota-run.
get_property(rpb_server_scripts GLOBAL PROPERTY RPB_SERVER_SCRIPTS)
install(PROGRAMS ${rpb_server_scripts} bench/quota-run DESTINATION ${RPB_SHARE_DIR}/scripts)
# The scripts stay beside each other (quota-run starts pg-throwaway from its
# own directory); bin/ holds links to them under the suite's prefix.
file(MAKE_DIRECTORY ${PROJECT_BINARY_DIR}/install-links)
file(RELATIVE_PATH rpb_bin_to_scripts /${CMAKE_INSTALL_BINDIR} /${RPB_SHARE_DIR}/scripts)
set(rpb_script_names quota-run)
foreach(path IN LISTS rpb_server_scripts)
	get_filename_component(script ${path} NAME)
	list(APPEND rpb_script_names ${script})
endforeach()
foreach(script IN LISTS rpb_script_names)
	file(CREATE_LINK ${rpb_bin_to_scripts}/${script}
		${PROJECT_BINARY_DIR}/install-links/rpbench-${script} SYMBOLIC)
	install(FILES ${PROJECT_BINARY_DIR}/install-links/rpbench-${script}
		DESTINATION ${CMAKE_INSTALL_BINDIR})
endforeach()
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR} FILES_MATCHING PATTERN "*.md")

set(CPACK_PACKAGE_NAME rpbench)
set(CPACK_PACKAGE_VENDOR rpbench)
set(CPACK_PACKAGE_CONTACT "rpbench maintainers <rpbench@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_DESCRIPTION "The same repository workload patterns (ingest, metadata, harvest)\n\
run in-process against LevelDB, SQLite and PostgreSQL, with JMeter-style\n\
results, verify of every acknowledged operation and HTML reports.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
# The libraries the programs link (libleveldb1d, libsqlite3-0, libpq5,
# libjansson4, libinih1, libxxhash0, ...) come from dpkg-shlibdeps; what
# only runs as a separate program is named here: gnuplot draws rpbench
# report's figures, bash runs the scripts; a PostgreSQL server (for
# pg-throwaway and --start-postgres) and mkfs.ext4 (quota-run) are optional.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "bash, gnuplot-nox | gnuplot")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "postgresql, postgresql-client, util-linux, e2fsprogs")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "xfsprogs")
include(CPack)
