#pragma once
// Where the tests find the checkout's files and the programs the build made. The folders are
// written into one generated file (test_paths.cpp.in, by tests/support/CMakeLists.txt), not into
// -D flags on every test file: a test file then compiles to the same object in any checkout, and
// a clean clone takes it from the compiler cache.

namespace ascope::test_paths {

/// tests/fixtures of the checkout.
const char* fixturesDir();
/// resources/ of the checkout.
const char* resourcesDir();
/// The built attentionscope-cli.
const char* cliProgram();
/// The built attentionscope (empty in a build without the window).
const char* appProgram();
/// tests/download's driver of the CLI's download commands (empty without the downloader).
const char* downloadDriver();
/// Where the handout's browser tests leave their screenshots (tests/handout/screenshots of the
/// build tree).
const char* handoutScreenshotsDir();

}  // namespace ascope::test_paths
