# cmake --install: the programs in bin/, their shared files in
# share/rpbench (workloads, record templates, the scripts users run), man
# pages and docs; and CPack's Debian packages of the same files: rpbench
# (the component "core": rpbench, rpbench-null, the shared files, the docs)
# and one package rpbench-<backend> per backend built in (its program, man
# page and throwaway-server script), so a user installs the backends they
# compare and no library or server of the others.

install(DIRECTORY data/workloads data/records data/schema DESTINATION ${RPB_SHARE_DIR})
# The scripts stay beside each other (quota-run starts pg-throwaway from its
# own directory); bin/ holds links to them under the suite's prefix.
file(MAKE_DIRECTORY ${PROJECT_BINARY_DIR}/install-links)
file(RELATIVE_PATH rpb_bin_to_scripts /${CMAKE_INSTALL_BINDIR} /${RPB_SHARE_DIR}/scripts)
# A script of share/rpbench/scripts and its bin/rpbench-<script> link, in a component.
function(rpb_install_script path component)
	get_filename_component(script ${path} NAME)
	install(PROGRAMS ${path} DESTINATION ${RPB_SHARE_DIR}/scripts COMPONENT ${component})
	file(CREATE_LINK ${rpb_bin_to_scripts}/${script}
		${PROJECT_BINARY_DIR}/install-links/rpbench-${script} SYMBOLIC)
	install(FILES ${PROJECT_BINARY_DIR}/install-links/rpbench-${script}
		DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT ${component})
endfunction()
rpb_install_script(bench/quota-run core)
# Every server backend's throwaway-server script (SERVER_SCRIPT, which
# rpbench compare --start-servers starts), in its backend's package.
foreach(b IN LISTS RPB_BACKENDS)
	get_property(script GLOBAL PROPERTY RPB_BACKEND_SERVER_SCRIPT_${b})
	if(script)
		rpb_install_script(${script} backend_${b})
	endif()
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
# The libraries each package's programs link (libjansson4, libinih1,
# libxxhash0, ...; libleveldb1d in rpbench-leveldb, libmariadb3 in
# rpbench-mariadb) come from dpkg-shlibdeps; what only runs as a separate
# program is named here: gnuplot draws rpbench report's figures, bash runs
# the scripts, mkfs.ext4 (quota-run) is optional; a backend's server (for
# its throwaway script and --start-servers) is its package's Recommends:
# the names of its packages.txt that are not -dev packages.
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_CORE_PACKAGE_NAME rpbench)
set(CPACK_DEBIAN_CORE_PACKAGE_DEPENDS "bash, gnuplot-nox | gnuplot")
set(CPACK_DEBIAN_CORE_PACKAGE_SUGGESTS "xfsprogs")
set(CPACK_COMPONENTS_ALL core)
set(rpb_embedded "")
set(rpb_servers "")
foreach(b IN LISTS RPB_BACKENDS)
	if(b STREQUAL "null")
		continue()
	endif()
	string(TOUPPER "BACKEND_${b}" C)
	list(APPEND CPACK_COMPONENTS_ALL backend_${b})
	set(CPACK_DEBIAN_${C}_PACKAGE_NAME rpbench-${b})
	set(CPACK_DEBIAN_${C}_PACKAGE_DEPENDS "rpbench (= ${PROJECT_VERSION})")
	get_property(dir GLOBAL PROPERTY RPB_BACKEND_DIR_${b})
	set(recommends "")
	if(dir AND EXISTS ${dir}/packages.txt)
		file(STRINGS ${dir}/packages.txt debs REGEX "^[^#]")
		foreach(deb IN LISTS debs)
			if(NOT deb MATCHES "-dev$")
				list(APPEND recommends ${deb})
			endif()
		endforeach()
	endif()
	list(JOIN recommends ", " recommends)
	set(CPACK_DEBIAN_${C}_PACKAGE_RECOMMENDS "${recommends}")
	get_property(kind GLOBAL PROPERTY RPB_BACKEND_KIND_${b})
	if(kind STREQUAL "server")
		list(APPEND rpb_servers rpbench-${b})
	else()
		list(APPEND rpb_embedded rpbench-${b})
	endif()
endforeach()
# The embedded backends come with rpbench unless declined; a server backend
# only when asked for (it recommends its server).
list(JOIN rpb_embedded ", " rpb_embedded)
list(JOIN rpb_servers ", " rpb_servers)
set(CPACK_DEBIAN_CORE_PACKAGE_RECOMMENDS "${rpb_embedded}, util-linux, e2fsprogs")
set(CPACK_DEBIAN_CORE_PACKAGE_SUGGESTS "${rpb_servers}, xfsprogs")
include(CPack)
