# Runs PROGRAM with ARGS and writes its standard output to OUT; fails when
# the program does (an empty or half page is never installed), and OUT.gz
# beside it, the installed copy: gzip -9n, as Debian's policy asks (no name or
# time stamp inside, so the same page gives the same bytes).
get_filename_component(dir ${OUT} DIRECTORY)
file(MAKE_DIRECTORY ${dir})
execute_process(COMMAND ${PROGRAM} ${ARGS} OUTPUT_FILE ${OUT}.tmp RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
	file(REMOVE ${OUT}.tmp)
	message(FATAL_ERROR "${PROGRAM} ${ARGS} failed (${rc})")
endif()
file(RENAME ${OUT}.tmp ${OUT})
execute_process(COMMAND gzip -9nc ${OUT} OUTPUT_FILE ${OUT}.gz.tmp RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
	file(REMOVE ${OUT}.gz.tmp)
	message(FATAL_ERROR "gzip ${OUT} failed (${rc})")
endif()
file(RENAME ${OUT}.gz.tmp ${OUT}.gz)
