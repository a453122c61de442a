# Links with LLVM's lld where it is installed (Debian's lld; scripts/install-deps.sh installs it):
# the suite links some fifty executables against LibTorch, Qt and the static engine, which the
# default bfd linker does at up to ten times lld's cost (the window: 1.2 s against 0.1 s;
# engine_tests 1.1 s against 0.5 s). A warm build (every object from the cache) is mostly linking.
option(ATTENTIONSCOPE_FAST_LINKER "Link with lld where the compiler can use it" ON)
if(ATTENTIONSCOPE_FAST_LINKER AND NOT CMAKE_CXX_FLAGS MATCHES "-fuse-ld="
   AND NOT CMAKE_EXE_LINKER_FLAGS MATCHES "-fuse-ld=")
  include(CheckLinkerFlag)
  check_linker_flag(CXX "-fuse-ld=lld" ATTENTIONSCOPE_HAS_LLD)
  if(ATTENTIONSCOPE_HAS_LLD)
    add_link_options(-fuse-ld=lld)
  endif()
endif()
