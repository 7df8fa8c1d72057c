# rpb_add_backend: how a folder under backends/ declares its backend, in one
# call (docs/architecture.md, "Adding a backend"):
#
#   rpb_add_backend(<name> SOURCES <file>... [DESCRIPTION <text>]
#                   [FIND_PACKAGE <find_package arguments>...] [LIBS <target>...]
#                   [TESTS <file>...] [SERVER SERVER_SCRIPT <path> | STORES_NOTHING]
#                   [ALWAYS | OFF])
#
# makes the switch RPB_WITH_<NAME> (none with ALWAYS: the null backend; OFF
# by default with OFF: a backend that is not yet ready to ship),
# finds the library, builds the static library rpb_backend_<name> from the
# folder's sources and adds the backend to the global lists everything else is
# derived from: RPB_BACKENDS_DECLARED (every folder, built or not: the workload
# sections and compare's names), RPB_BACKENDS (built in, in the order of
# backends/CMakeLists.txt), RPB_SERVER_BACKENDS (SERVER: it needs a server,
# --dsn, not --dir), RPB_BACKEND_KINDS ("<name> server <script>",
# "<name> embedded" or "<name> nothing", for the scripts: build/backends.txt;
# SERVER and STORES_NOTHING say what the
# backend's RPB_BF_SERVER and RPB_BF_STORES_NOTHING flags say, which
# tests/backend_list_test.c checks) and RPB_BACKEND_INCLUDE_DIRS (the tests see every folder's
# header) and RPB_BACKEND_TESTS (TESTS: the folder's own test files, compiled
# into the Criterion suite when the backend is built). A SERVER backend has
# a throwaway-server script, SERVER_SCRIPT (a path under scripts/, by default
# scripts/<name>-throwaway; postgres names scripts/pg-throwaway): `start [--durable] DIR` prints a DSN, `stop DIR`
# removes the server, `run DIR -- CMD` sets RPB_TEST_<NAME>_DSN for CMD
# (docs/architecture.md). It is linked into build/share/rpbench/scripts,
# installed beside pg-throwaway (RPB_SERVER_SCRIPTS, cmake/install.cmake),
# is backends.txt's third column and the registry's rpb_backend_server_script
# (compare --start-servers). The Debian packages it needs are the folder's packages.txt, which
# scripts/deps.sh reads before any CMake runs; a library not found names them.
#
# A folder outside backends/ (tests/example_backend/, added by tests/CMakeLists.txt)
# declares a backend of the test build only: it joins RPB_TEST_BACKENDS, its
# tests RPB_BACKEND_TESTS, and none of the lists that ship (no program, man
# page, backends.txt line, workload section or switch). Every backend's kind
# is also the property RPB_BACKEND_KIND_<name>, which picks its contract suite.
function(rpb_add_backend name)
	cmake_parse_arguments(PARSE_ARGV 1 A "SERVER;STORES_NOTHING;ALWAYS;OFF" "DESCRIPTION;SERVER_SCRIPT"
		"SOURCES;FIND_PACKAGE;LIBS;TESTS")
	if(NOT name MATCHES "^[a-z][a-z0-9]*$")
		message(FATAL_ERROR "backend name '${name}' must be lower-case letters and digits")
	endif()
	if(NOT A_SOURCES)
		message(FATAL_ERROR "rpb_add_backend(${name}) needs SOURCES")
	endif()
	string(TOUPPER ${name} N)
	if(NOT A_DESCRIPTION)
		set(A_DESCRIPTION ${name})
	endif()
	string(FIND "${CMAKE_CURRENT_SOURCE_DIR}/" "${PROJECT_SOURCE_DIR}/backends/" shipped)
	if(A_SERVER)
		set(kind server)
	elseif(A_STORES_NOTHING)
		set(kind nothing)
	else()
		set(kind embedded)
	endif()
	set_property(GLOBAL PROPERTY RPB_BACKEND_KIND_${name} ${kind})
	set_property(GLOBAL PROPERTY RPB_BACKEND_DIR_${name} ${CMAKE_CURRENT_SOURCE_DIR})
	if(A_SERVER_SCRIPT AND NOT A_SERVER)
		message(FATAL_ERROR "rpb_add_backend(${name}): SERVER_SCRIPT is for a SERVER backend")
	endif()
	if(A_SERVER AND shipped EQUAL 0)
		if(NOT A_SERVER_SCRIPT)
			set(A_SERVER_SCRIPT scripts/${name}-throwaway)
		endif()
		if(NOT A_SERVER_SCRIPT MATCHES "^scripts/[A-Za-z0-9._-]+$"
		   OR NOT EXISTS ${PROJECT_SOURCE_DIR}/${A_SERVER_SCRIPT})
			message(FATAL_ERROR "rpb_add_backend(${name}) is a SERVER backend: its throwaway-server "
				"script (start DIR / stop DIR / run DIR -- CMD) must exist under scripts/: "
				"'${A_SERVER_SCRIPT}' does not; write it or name it with SERVER_SCRIPT scripts/<file>")
		endif()
	endif()
	set_property(GLOBAL APPEND PROPERTY RPB_BACKEND_INCLUDE_DIRS ${CMAKE_CURRENT_SOURCE_DIR})
	if(NOT shipped EQUAL 0)
		set(A_ALWAYS TRUE)
	else()
		set_property(GLOBAL APPEND PROPERTY RPB_BACKENDS_DECLARED ${name})
	endif()
	if(NOT A_ALWAYS)
		set(dflt ON)
		if(A_OFF)
			set(dflt OFF)
		endif()
		option(RPB_WITH_${N} "Build the ${A_DESCRIPTION} backend" ${dflt})
		if(NOT RPB_WITH_${N})
			return()
		endif()
	endif()
	if(A_FIND_PACKAGE)
		list(GET A_FIND_PACKAGE 0 pkg)
		find_package(${A_FIND_PACKAGE})
		if(NOT ${pkg}_FOUND)
			set(debs "")
			if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/packages.txt)
				file(STRINGS ${CMAKE_CURRENT_SOURCE_DIR}/packages.txt debs REGEX "^[^#]")
				list(JOIN debs " " debs)
			endif()
			message(FATAL_ERROR "the ${A_DESCRIPTION} backend needs ${pkg}: apt-get install ${debs} "
				"(scripts/deps.sh), or configure with -DRPB_WITH_${N}=OFF")
		endif()
	endif()
	# The library's targets are seen everywhere (bench/calibrate links them too).
	foreach(lib IN LISTS A_LIBS)
		if(TARGET ${lib})
			get_target_property(imported ${lib} IMPORTED)
			get_target_property(global ${lib} IMPORTED_GLOBAL)
			if(imported AND NOT global)
				set_target_properties(${lib} PROPERTIES IMPORTED_GLOBAL TRUE)
			endif()
		endif()
	endforeach()
	add_library(rpb_backend_${name} STATIC ${A_SOURCES})
	target_include_directories(rpb_backend_${name} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
	target_link_libraries(rpb_backend_${name} PUBLIC rpb_core PRIVATE ${A_LIBS})
	foreach(t IN LISTS A_TESTS)
		set_property(GLOBAL APPEND PROPERTY RPB_BACKEND_TESTS ${CMAKE_CURRENT_SOURCE_DIR}/${t})
	endforeach()
	if(NOT shipped EQUAL 0)
		set_property(GLOBAL APPEND PROPERTY RPB_TEST_BACKENDS ${name})
		return()
	endif()
	set_property(GLOBAL APPEND PROPERTY RPB_BACKENDS ${name})
	if(A_SERVER)
		set_property(GLOBAL APPEND PROPERTY RPB_SERVER_BACKENDS ${name})
		set_property(GLOBAL APPEND PROPERTY RPB_SERVER_SCRIPTS ${A_SERVER_SCRIPT})
		set_property(GLOBAL PROPERTY RPB_BACKEND_SERVER_SCRIPT_${name} ${A_SERVER_SCRIPT})
		get_filename_component(script ${A_SERVER_SCRIPT} NAME)
		file(CREATE_LINK ${PROJECT_SOURCE_DIR}/${A_SERVER_SCRIPT} ${RPB_BUILD_SHARE}/scripts/${script} SYMBOLIC)
		set(kind "server ${A_SERVER_SCRIPT}")
	endif()
	set_property(GLOBAL APPEND PROPERTY RPB_BACKEND_KINDS "${name} ${kind}")
endfunction()

# rpb_backend_registry(<target> BACKENDS <name>...): the registry of those
# backends (backends/registry.c.in: the table of each, every declared name
# and those of BACKENDS, find by name) as the static library <target>, which
# links them.
function(rpb_backend_registry target)
	cmake_parse_arguments(PARSE_ARGV 1 A "" "" "BACKENDS")
	get_property(declared GLOBAL PROPERTY RPB_BACKENDS_DECLARED)
	set(RPB_REGISTRY_EXTERNS "")
	set(RPB_REGISTRY_ENTRIES "")
	set(RPB_REGISTRY_NAMES "")
	set(RPB_REGISTRY_SCRIPTS "")
	set(RPB_REGISTRY_KINDS "")
	set(libs "")
	set(defs "")
	foreach(b IN LISTS A_BACKENDS)
		string(APPEND RPB_REGISTRY_EXTERNS "extern const struct rpb_backend rpb_backend_${b};\n")
		string(APPEND RPB_REGISTRY_ENTRIES "\t&rpb_backend_${b},\n")
		get_property(kind GLOBAL PROPERTY RPB_BACKEND_KIND_${b})
		set(flags 0)
		if(kind STREQUAL "server")
			set(flags RPB_BF_SERVER)
		elseif(kind STREQUAL "nothing")
			set(flags RPB_BF_STORES_NOTHING)
		endif()
		string(APPEND RPB_REGISTRY_KINDS "\t{\"${b}\", ${flags}},\n")
		get_property(script GLOBAL PROPERTY RPB_BACKEND_SERVER_SCRIPT_${b})
		if(script)
			string(APPEND RPB_REGISTRY_SCRIPTS "\t{\"${b}\", \"${script}\"},\n")
		endif()
		string(TOUPPER ${b} B)
		list(APPEND libs rpb_backend_${b})
		list(APPEND defs RPB_HAVE_${B})
	endforeach()
	list(APPEND declared ${A_BACKENDS})
	list(REMOVE_DUPLICATES declared)
	foreach(b IN LISTS declared)
		string(APPEND RPB_REGISTRY_NAMES "\t\"${b}\",\n")
	endforeach()
	# The catalogue (names, kinds, scripts: no backend's code), then the
	# registry of the backends' tables, which links their libraries.
	set(cat ${CMAKE_CURRENT_BINARY_DIR}/${target}_catalog.c)
	configure_file(${PROJECT_SOURCE_DIR}/backends/catalog.c.in ${cat} @ONLY)
	add_library(${target}_catalog STATIC ${cat})
	target_include_directories(${target}_catalog PUBLIC ${PROJECT_SOURCE_DIR}/backends)
	target_compile_definitions(${target}_catalog PUBLIC ${defs})
	target_link_libraries(${target}_catalog PUBLIC rpb_core)
	set(out ${CMAKE_CURRENT_BINARY_DIR}/${target}_registry.c)
	configure_file(${PROJECT_SOURCE_DIR}/backends/registry.c.in ${out} @ONLY)
	add_library(${target} STATIC ${out})
	target_link_libraries(${target} PUBLIC ${target}_catalog ${libs})
endfunction()

# rpb_backend_main(<name> <file>): writes the main of rpbench-<name>, the
# shared driver with that backend (cli/rpbench-main.c.in).
function(rpb_backend_main b out)
	set(RPB_MAIN_BACKEND ${b})
	configure_file(${PROJECT_SOURCE_DIR}/cli/rpbench-main.c.in ${out} @ONLY)
endfunction()
