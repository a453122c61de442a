#include "engine/text/pieces/sentence_piece_library.h"

#include <dlfcn.h>

#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace ascope {
namespace {

constexpr const char* kFileName = "libattentionscope_sentencepiece.so";

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define ATTENTIONSCOPE_SANITIZED_BUILD 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define ATTENTIONSCOPE_SANITIZED_BUILD 1
#endif
#ifdef ATTENTIONSCOPE_SANITIZED_BUILD
constexpr int kDeepBind = 0;
#else
constexpr int kDeepBind = RTLD_DEEPBIND;
#endif

std::vector<std::string> candidates() {
  std::vector<std::string> paths;
  std::error_code ec;
  const std::filesystem::path program = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    paths.push_back(
        (program.parent_path().parent_path() / ATTENTIONSCOPE_SENTENCEPIECE_INSTALL_DIR / kFileName)
            .string());
  }
#ifdef ATTENTIONSCOPE_SENTENCEPIECE_BUILD_DIR
  paths.push_back(std::string(ATTENTIONSCOPE_SENTENCEPIECE_BUILD_DIR) + "/" + kFileName);
#endif
  return paths;
}

Expected<const SentencePieceApi*> openLibrary() {
#ifndef ATTENTIONSCOPE_WITH_SENTENCEPIECE
  return Error{
      "this build has no SentencePiece (libsentencepiece-dev was missing when it was "
      "built): subword pieces are not available; translation can use whole words "
      "(pieces 0)"};
#else
  std::string tried;
  for (const std::string& path : candidates()) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
      tried += (tried.empty() ? "" : ", ") + path;
      continue;
    }
    // RTLD_LOCAL | RTLD_DEEPBIND: SentencePiece's protobuf binds to itself, LibTorch's to its own.
    // The sanitizers' runtimes refuse RTLD_DEEPBIND; their builds (the fuzzers) hold no LibTorch.
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | kDeepBind);
    if (handle == nullptr) return Error{path + ": cannot be loaded: " + dlerror()};
    using Entry = const SentencePieceApi* (*)();
    auto entry = reinterpret_cast<Entry>(dlsym(handle, SentencePieceApi::kEntryName));
    const SentencePieceApi* api = entry != nullptr ? entry() : nullptr;
    if (api == nullptr || api->version != SentencePieceApi::kVersion) {
      return Error{path + ": not this program's SentencePiece library (another version?)"};
    }
    return api;  // the handle stays open for the process's life
  }
  return Error{"SentencePiece's library " + std::string(kFileName) + " is missing (looked for " +
               tried + "): reinstall the program"};
#endif
}

}  // namespace

Expected<const SentencePieceApi*> SentencePieceLibrary::api() {
  static const Expected<const SentencePieceApi*> kOpened = openLibrary();
  return kOpened;
}

}  // namespace ascope
