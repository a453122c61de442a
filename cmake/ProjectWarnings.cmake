# Strict warnings for our own targets only; third-party headers come in as SYSTEM.
function(attentionscope_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic $<$<CXX_COMPILER_ID:GNU>:-Wshadow=local>
                                           -Wnon-virtual-dtor -Wno-unused-parameter)
endfunction()
