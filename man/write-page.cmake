# Runs PROGRAM with ARGS and writes its standard output to OUT; fails when
# the program does (an empty or half page is never installed).
get_filename_component(dir ${OUT} DIRECTORY)
file(MAKE_DIRECTORY ${dir})
execute_process(COMMAND ${PROGRAM} ${ARGS} OUTPUT_FILE ${OUT}.tmp RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
	file(REMOVE ${OUT}.tmp)
	message(FATAL_ERROR "${PROGRAM} ${ARGS} failed (${rc})")
endif()
file(RENAME ${OUT}.tmp ${OUT})
