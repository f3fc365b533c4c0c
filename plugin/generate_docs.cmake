# cmake -DHINTKIT=path/to/hintkit -DOUT=dir -DCHANGELOG=file -P generate_docs.cmake
# Writes OUT/hintkit.1 (and .gz), OUT/{bash/hintkit,zsh/_hintkit,fish/hintkit.fish} and
# OUT/changelog.gz. gzip -9n: no file name or time stamp, so the output is the same on
# every build (Debian policy 12.3, reproducible packages).
function(run_hintkit output)
  get_filename_component(dir ${output} DIRECTORY)
  file(MAKE_DIRECTORY ${dir})
  execute_process(COMMAND ${HINTKIT} ${ARGN} OUTPUT_FILE ${output} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "hintkit ${ARGN} failed (${rc})")
  endif()
endfunction()

function(gzip_n input output)
  execute_process(COMMAND gzip -9n -c ${input} OUTPUT_FILE ${output} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gzip ${input} failed (${rc})")
  endif()
endfunction()

run_hintkit(${OUT}/hintkit.1 __man-page)
gzip_n(${OUT}/hintkit.1 ${OUT}/hintkit.1.gz)
run_hintkit(${OUT}/bash/hintkit completion bash)
run_hintkit(${OUT}/zsh/_hintkit completion zsh)
run_hintkit(${OUT}/fish/hintkit.fish completion fish)
gzip_n(${CHANGELOG} ${OUT}/changelog.gz)
