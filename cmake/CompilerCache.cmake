# Compiles through ccache where it is installed (scripts/install-deps.sh installs Debian's), so that
# a second build of the same sources takes its objects from the cache: a clean clone in another
# folder (CI's), the package's build tree, a build after `git clean`.
#
# A hit in another folder needs a hash that names no folder of the checkout:
#   - base_dir: paths under the checkout (sources, -I, the build tree inside it) are hashed relative
#     to the build folder, so /a/attentionscope/build and /b/clone/build hash the same;
#   - hash_dir off: no object carries debug information that would name the folder;
#   - the precompiled headers list their headers by <name>, not by an absolute path (cmake/Pch.cmake),
#     and gcc writes the PCH's name into the preprocessed text only with -fpch-preprocess, which
#     ccache needs to hash the .gch rather than give up on the file;
#   - sloppiness pch_defines,time_macros: ccache cannot see a PCH's macros, so it must be told to
#     trust them (nothing here uses __DATE__ or __TIME__); include_file_[cm]time: a header written
#     a moment ago, by a fresh clone, is hashed like any other;
#   - inode_cache: a file's hash is kept by its inode, so the half-gigabyte precompiled header is
#     hashed once, not once for every file that takes it;
#   - depend mode: a miss is compiled at once, its headers taken from the compiler's -MD list,
#     instead of being preprocessed first to be hashed (a cold build pays nothing for the cache).
#     The .gch a file takes is hashed all the same: a changed precompiled header is a miss.
# Paths the tests need (fixtures, the built programs) reach them through one generated file
# (tests/support/test_paths.cpp.in), not through -D flags on every file.
option(ATTENTIONSCOPE_CCACHE "Compile through ccache where it is installed" ON)
if(ATTENTIONSCOPE_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(ATTENTIONSCOPE_CCACHE_PROGRAM ccache)
  find_program(ATTENTIONSCOPE_ENV_PROGRAM env)
  if(ATTENTIONSCOPE_CCACHE_PROGRAM AND ATTENTIONSCOPE_ENV_PROGRAM)
    set(CMAKE_CXX_COMPILER_LAUNCHER
        ${ATTENTIONSCOPE_ENV_PROGRAM}
        CCACHE_BASEDIR=${PROJECT_SOURCE_DIR}
        CCACHE_NOHASHDIR=1
        CCACHE_INODECACHE=1
        CCACHE_DEPEND=1
        CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
        ${ATTENTIONSCOPE_CCACHE_PROGRAM})
    message(STATUS "Compiling through ${ATTENTIONSCOPE_CCACHE_PROGRAM}")
  endif()
endif()
if(CMAKE_CXX_COMPILER_LAUNCHER MATCHES "ccache" AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  add_compile_options(-fpch-preprocess)
endif()
