// resolveHubFileMetadata on answers a test writes: what the downloader makes of a hub's headers,
// sizes and redirects, whatever they hold.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/download/models/hub_file_metadata.h"
#include "engine/download/server_text.h"
#include "engine/download/sha256.h"

namespace ascope {
namespace {

/// An answer from the header lines of a response, status line first.
HubAnswer answerOf(const std::vector<std::string>& lines, const std::string& redirect_url = "") {
  HubAnswer answer;
  for (const std::string& line : lines) answer.addHeaderLine(line + "\r\n");
  answer.redirect_url = redirect_url;
  return answer;
}

Expected<HubFileMetadata> resolve(const std::vector<HubAnswer>& answers,
                                  std::vector<std::string>* asked = nullptr) {
  std::size_t next = 0;
  return resolveHubFileMetadata("http://hub/a/resolve/main/f", [&](const std::string& url) {
    if (asked != nullptr) asked->push_back(url);
    return next < answers.size() ? Expected<HubAnswer>(answers[next++])
                                 : Expected<HubAnswer>(Error{url + ": no more answers"});
  });
}

TEST(HubAnswer, StatusLinesStartAnAnswerAndHeaderNamesAreLowercased) {
  const HubAnswer answer = answerOf({"HTTP/1.1 100 Continue", "X-Old: 1", "HTTP/2 302 Found",
                                     "Location:  /b/resolve/main/f ", "X-Linked-Size: 12"});
  EXPECT_EQ(answer.status, 302);
  EXPECT_EQ(answer.header("x-old"), "");
  EXPECT_EQ(answer.header("location"), "/b/resolve/main/f");
  EXPECT_EQ(answer.header("x-linked-size"), "12");
}

TEST(HubAnswer, TextFieldsArePrintableAndSizesAreNumbersOrUnknown) {
  const std::string sha = Sha256::hexOf("w");
  Expected<HubFileMetadata> metadata = resolve({answerOf(
      {"HTTP/1.1 200 OK", "Content-Length: 99999999999999999999999", "X-Repo-Commit: \x1b[31mabc",
       "X-Error-Message: a\x07"
       "b",
       "ETag: \"" + sha + "\""})});
  ASSERT_TRUE(metadata.ok()) << metadata.error();
  EXPECT_EQ(metadata->size, -1);  // 23 digits: no file is that large
  EXPECT_EQ(metadata->commit, "\\x1B[31mabc");
  EXPECT_EQ(metadata->error_message, "a\\x07b");
  EXPECT_EQ(metadata->sha256, sha);
  EXPECT_FALSE(metadata->lfs);

  // A linked size that is not a number is no size; the redirect's own length is not one either.
  metadata =
      resolve({answerOf({"HTTP/1.1 302 Found", "Location: https://cdn/x", "X-Linked-Size: 12abc",
                         "Content-Length: 0", "X-Linked-Etag: \"W/\x1b[2J\""},
                        "https://cdn/x")});
  ASSERT_TRUE(metadata.ok()) << metadata.error();
  EXPECT_EQ(metadata->size, -1);
  EXPECT_TRUE(metadata->lfs);
  EXPECT_TRUE(metadata->sha256.empty());
  EXPECT_TRUE(isPrintableServerText(metadata->etag)) << metadata->etag;
  EXPECT_FALSE(metadata->download_on_endpoint);
  EXPECT_EQ(metadata->download_url, "https://cdn/x");
}

TEST(HubAnswer, RedirectsAreFollowedOnTheHostOnlyAndNotForever) {
  std::vector<std::string> asked;
  Expected<HubFileMetadata> metadata =
      resolve({answerOf({"HTTP/1.1 307 Moved", "Location: /b/resolve/main/f"},
                        "http://hub/b/resolve/main/f"),
               answerOf({"HTTP/1.1 200 OK", "Content-Length: 5"})},
              &asked);
  ASSERT_TRUE(metadata.ok()) << metadata.error();
  EXPECT_EQ(asked, (std::vector<std::string>{"http://hub/a/resolve/main/f",
                                             "http://hub/b/resolve/main/f"}));
  EXPECT_EQ(metadata->download_url, "http://hub/b/resolve/main/f");
  EXPECT_EQ(metadata->size, 5);

  const HubAnswer loop = answerOf({"HTTP/1.1 302 Found", "Location: /a/resolve/main/f"},
                                  "http://hub/a/resolve/main/f");
  metadata = resolve(std::vector<HubAnswer>(20, loop));
  ASSERT_FALSE(metadata.ok());
  EXPECT_EQ(metadata.error(),
            "http://hub/a/resolve/main/f: too many redirects (more than 5), "
            "the last to /a/resolve/main/f");

  // Elsewhere than http(s), or to an address with spaces or controls: refused.
  for (const std::string location : {"ftp://cdn/x", "https://cdn/x y", "file:///etc/passwd"}) {
    metadata = resolve({answerOf({"HTTP/1.1 302 Found", "Location: " + location}, location)});
    ASSERT_FALSE(metadata.ok()) << location;
    EXPECT_NE(metadata.error().find("which is not an http(s) address"), std::string::npos)
        << metadata.error();
  }
}

}  // namespace
}  // namespace ascope
