# A unity build of our own: each target's sources compiled in batches of
# ATTENTIONSCOPE_UNITY_BATCH_SIZE, one translation unit a batch, so that LibTorch's, Qt's and the
# JSON library's headers are parsed, and their inline code optimised, once a batch instead of once
# a file (a cold build of everything in about half the time).
#
# Not CMake's UNITY_BUILD: its batch files include each source by its absolute path, so every
# batch of one checkout hashes differently from the same batch of another and no clean clone
# could take an object from the compiler cache (cmake/CompilerCache.cmake). Ours include
# "engine/nn/foo.cpp", found through the project's own include folder.
#
# Names at a file's namespace scope must therefore be unique within each library and test
# program. A source stays out of the batches (compiled alone) when it is generated, has options,
# definitions or include folders of its own, skips the precompiled header, or says
# SKIP_UNITY_BUILD_INCLUSION.
option(ATTENTIONSCOPE_UNITY_BUILD "Compile each target's sources in batches (a unity build)" ON)
set(ATTENTIONSCOPE_UNITY_BATCH_SIZE 8 CACHE STRING "Sources per batch of the unity build (0: all)")

# Whether SOURCE (absolute) of TARGET may go into a batch.
function(_attentionscope_batchable target source out)
  set(${out} FALSE PARENT_SCOPE)
  if(NOT source MATCHES "\\.cpp$" OR NOT EXISTS ${source})
    return()
  endif()
  file(RELATIVE_PATH from_source ${PROJECT_SOURCE_DIR} ${source})
  file(RELATIVE_PATH from_build ${PROJECT_BINARY_DIR} ${source})
  if(from_source MATCHES "^\\.\\./" OR NOT from_build MATCHES "^\\.\\./")
    return()  # outside the checkout, or inside the build tree (generated)
  endif()
  foreach(property GENERATED HEADER_FILE_ONLY SKIP_UNITY_BUILD_INCLUSION SKIP_PRECOMPILE_HEADERS
                   COMPILE_OPTIONS COMPILE_DEFINITIONS COMPILE_FLAGS INCLUDE_DIRECTORIES)
    get_source_file_property(value ${source} TARGET_DIRECTORY ${target} ${property})
    if(value)
      return()
    endif()
  endforeach()
  set(${out} TRUE PARENT_SCOPE)
endfunction()

# attentionscope_unity_batches(TARGET): replaces TARGET's batchable sources by batch files.
function(attentionscope_unity_batches target)
  if(NOT ATTENTIONSCOPE_UNITY_BUILD)
    return()
  endif()
  get_target_property(sources ${target} SOURCES)
  get_target_property(source_dir ${target} SOURCE_DIR)
  get_target_property(binary_dir ${target} BINARY_DIR)
  set(batchable)
  foreach(source IN LISTS sources)
    if(source MATCHES "^\\$<")
      continue()  # a generator expression
    endif()
    get_filename_component(source ${source} ABSOLUTE BASE_DIR ${source_dir})
    _attentionscope_batchable(${target} ${source} ok)
    if(ok)
      list(APPEND batchable ${source})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES batchable)
  list(LENGTH batchable count)
  if(count LESS 2)
    return()
  endif()
  set(size ${ATTENTIONSCOPE_UNITY_BATCH_SIZE})
  if(size LESS_EQUAL 0)
    set(size ${count})
  endif()
  set(batch_files)
  set(index 0)
  set(content "")
  set(in_batch 0)
  foreach(source IN LISTS batchable)
    file(RELATIVE_PATH relative ${PROJECT_SOURCE_DIR} ${source})
    string(APPEND content "#include \"${relative}\"\n")
    math(EXPR in_batch "${in_batch} + 1")
    if(in_batch EQUAL size)
      _attentionscope_write_batch(${binary_dir} ${target} ${index} "${content}" batch_file)
      list(APPEND batch_files ${batch_file})
      math(EXPR index "${index} + 1")
      set(content "")
      set(in_batch 0)
    endif()
  endforeach()
  if(in_batch GREATER 0)
    _attentionscope_write_batch(${binary_dir} ${target} ${index} "${content}" batch_file)
    list(APPEND batch_files ${batch_file})
  endif()
  set_source_files_properties(${batchable} TARGET_DIRECTORY ${target} PROPERTIES HEADER_FILE_ONLY ON)
  set_source_files_properties(${batch_files} TARGET_DIRECTORY ${target} PROPERTIES SKIP_AUTOGEN ON)
  target_sources(${target} PRIVATE ${batch_files})
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR})  # where the batches look
endfunction()

function(_attentionscope_write_batch binary_dir target index content out)
  set(file ${binary_dir}/${target}_batches/batch_${index}.cpp)
  # Written only when it changes (file(CONFIGURE)), so that configuring again rebuilds nothing.
  file(CONFIGURE OUTPUT ${file}
       CONTENT "// The sources of ${target} compiled as one unit (cmake/UnityBatches.cmake).\n${content}")
  set(${out} ${file} PARENT_SCOPE)
endfunction()

# Every library and program under DIRECTORY, then its subfolders'.
function(attentionscope_unity_batches_in directory)
  get_property(targets DIRECTORY ${directory} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    if(type MATCHES "^(STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|EXECUTABLE)$")
      attentionscope_unity_batches(${target})
    endif()
  endforeach()
  get_property(subdirectories DIRECTORY ${directory} PROPERTY SUBDIRECTORIES)
  foreach(subdirectory IN LISTS subdirectories)
    attentionscope_unity_batches_in(${subdirectory})
  endforeach()
endfunction()
