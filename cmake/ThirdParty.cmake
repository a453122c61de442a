# Finds the libraries every layer needs. The engine must build with LibTorch + spdlog alone (the GPU
# server has no Qt and no OpenCV), so header-only libraries may also come from
# ATTENTIONSCOPE_EXTRA_INCLUDE, a folder that can travel with the working tree.
set(ATTENTIONSCOPE_EXTRA_INCLUDE "" CACHE PATH "Folder with extra header-only libraries (nlohmann, spdlog, fmt)")

find_package(Torch REQUIRED)
find_package(Threads REQUIRED)

find_package(spdlog QUIET)
if(NOT spdlog_FOUND)
  if(NOT ATTENTIONSCOPE_EXTRA_INCLUDE)
    message(FATAL_ERROR "spdlog not found: install libspdlog-dev or set ATTENTIONSCOPE_EXTRA_INCLUDE")
  endif()
  add_library(spdlog_header_only INTERFACE)
  target_include_directories(spdlog_header_only SYSTEM INTERFACE ${ATTENTIONSCOPE_EXTRA_INCLUDE})
  target_compile_definitions(spdlog_header_only INTERFACE SPDLOG_HEADER_ONLY FMT_HEADER_ONLY)
  add_library(spdlog::spdlog ALIAS spdlog_header_only)
endif()

find_package(nlohmann_json QUIET)
if(NOT nlohmann_json_FOUND)
  if(NOT ATTENTIONSCOPE_EXTRA_INCLUDE)
    message(FATAL_ERROR "nlohmann-json not found: install nlohmann-json3-dev or set ATTENTIONSCOPE_EXTRA_INCLUDE")
  endif()
  add_library(nlohmann_json_header_only INTERFACE)
  target_include_directories(nlohmann_json_header_only SYSTEM INTERFACE ${ATTENTIONSCOPE_EXTRA_INCLUDE})
  add_library(nlohmann_json::nlohmann_json ALIAS nlohmann_json_header_only)
endif()

# CLI11 parses attentionscope-cli's options.
find_package(CLI11 CONFIG QUIET)
if(NOT CLI11_FOUND)
  # The GPU server has no libcli11-dev; its header-only copy may travel in the extra include folder.
  if(NOT ATTENTIONSCOPE_EXTRA_INCLUDE OR NOT EXISTS ${ATTENTIONSCOPE_EXTRA_INCLUDE}/CLI/CLI.hpp)
    message(FATAL_ERROR "CLI11 not found: install libcli11-dev or put CLI/ in ATTENTIONSCOPE_EXTRA_INCLUDE")
  endif()
  add_library(cli11_header_only INTERFACE)
  target_include_directories(cli11_header_only SYSTEM INTERFACE ${ATTENTIONSCOPE_EXTRA_INCLUDE})
  add_library(CLI11::CLI11 ALIAS cli11_header_only)
endif()

if(ATTENTIONSCOPE_WITH_DOWNLOAD)
  find_package(CURL QUIET)
  find_package(LibArchive QUIET)
  find_package(OpenSSL QUIET COMPONENTS Crypto)
  if(NOT CURL_FOUND OR NOT LibArchive_FOUND OR NOT OpenSSL_FOUND)
    message(STATUS "libcurl, libarchive or OpenSSL not found: no dataset downloader (ATTENTIONSCOPE_WITH_DOWNLOAD off)")
    set(ATTENTIONSCOPE_WITH_DOWNLOAD OFF)
  endif()
endif()

if(ATTENTIONSCOPE_WITH_OPENCV)
  find_package(OpenCV QUIET COMPONENTS core imgproc imgcodecs)
  if(NOT OpenCV_FOUND)
    message(STATUS "OpenCV not found: image files will not be decoded (ATTENTIONSCOPE_WITH_OPENCV off)")
    set(ATTENTIONSCOPE_WITH_OPENCV OFF)
  endif()
endif()

if(ATTENTIONSCOPE_WITH_SENTENCEPIECE)
  find_package(PkgConfig QUIET)
  if(PkgConfig_FOUND)
    pkg_check_modules(SentencePiece QUIET IMPORTED_TARGET sentencepiece)
  endif()
  # Its library also fingerprints the pieces (SHA-256, OpenSSL's libcrypto): a run folder records
  # its pieces' and checks them on every load.
  find_package(OpenSSL QUIET COMPONENTS Crypto)
  if(NOT SentencePiece_FOUND OR NOT OpenSSL_FOUND)
    message(STATUS "SentencePiece or OpenSSL's libcrypto not found: translation keeps whole words (ATTENTIONSCOPE_WITH_SENTENCEPIECE off)")
    set(ATTENTIONSCOPE_WITH_SENTENCEPIECE OFF)
  endif()
endif()

# LibTorch's imported target carries its include dirs as non-SYSTEM; re-export them as SYSTEM so our
# -Wall -Wextra does not drown in warnings from its headers.
add_library(attentionscope_torch INTERFACE)
target_include_directories(attentionscope_torch SYSTEM INTERFACE ${TORCH_INCLUDE_DIRS})
target_link_libraries(attentionscope_torch INTERFACE ${TORCH_LIBRARIES})
# at::parallel_for is an OpenMP pragma inlined from LibTorch's headers: a file compiled without
# -fopenmp runs it on one thread (the engine's own kernels and split matrix products use it).
find_package(OpenMP COMPONENTS CXX)
if(OpenMP_CXX_FOUND)
  target_link_libraries(attentionscope_torch INTERFACE OpenMP::OpenMP_CXX)
endif()
# TORCH_CXX_FLAGS carries -D_GLIBCXX_USE_CXX11_ABI: every target must agree with LibTorch on it
# (std::string crosses between the engine's two libraries), so it applies to all of them.
separate_arguments(_torch_flags UNIX_COMMAND "${TORCH_CXX_FLAGS}")
add_compile_options(${_torch_flags})

if(ATTENTIONSCOPE_BUILD_GUI)
  find_package(Qt6 REQUIRED COMPONENTS Core Gui Widgets PrintSupport Svg Test Network)
  # Qt::Test gives every test file its build and source folders (QT_TESTCASE_BUILDDIR/SOURCEDIR,
  # for QFINDTESTDATA, which no test uses): -D flags that name the checkout would make each test
  # miss the compiler cache in any other clone (cmake/CompilerCache.cmake).
  get_target_property(_qt_test_definitions Qt6::Test INTERFACE_COMPILE_DEFINITIONS)
  list(FILTER _qt_test_definitions EXCLUDE REGEX "^QT_TESTCASE_(BUILD|SOURCE)DIR=")
  set_target_properties(Qt6::Test PROPERTIES INTERFACE_COMPILE_DEFINITIONS
                                              "${_qt_test_definitions}")
  find_package(QCustomPlotQt6 REQUIRED)
endif()

if(ATTENTIONSCOPE_BUILD_TESTS)
  # GoogleTest from the system, else built from a source tree that travelled with the working tree
  # (scripts/stage-gpu-deps.sh copies Debian's /usr/src/googletest there).
  set(ATTENTIONSCOPE_GTEST_SOURCE "" CACHE PATH "GoogleTest source tree, for machines without it")
  find_package(GTest QUIET)
  if(NOT GTest_FOUND)
    if(NOT ATTENTIONSCOPE_GTEST_SOURCE)
      message(FATAL_ERROR "GoogleTest not found: install libgtest-dev, set ATTENTIONSCOPE_GTEST_SOURCE "
                          "or configure with -DATTENTIONSCOPE_BUILD_TESTS=OFF")
    endif()
    set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
    set(BUILD_GMOCK OFF CACHE BOOL "" FORCE)
    add_subdirectory(${ATTENTIONSCOPE_GTEST_SOURCE} ${CMAKE_BINARY_DIR}/googletest EXCLUDE_FROM_ALL)
    add_library(GTest::gtest ALIAS gtest)
    add_library(GTest::gtest_main ALIAS gtest_main)
  endif()
  include(GoogleTest)
endif()
