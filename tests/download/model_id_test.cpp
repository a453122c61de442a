#include "engine/download/models/model_id.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "engine/download/models/models_folder.h"

namespace ascope {
namespace {

TEST(ModelId, AcceptsOwnerSlashNameAndBareNames) {
  const Expected<ModelId> vit = ModelId::parse("google/vit-base-patch16-224");
  ASSERT_TRUE(vit.ok()) << vit.error();
  EXPECT_EQ(vit->owner(), "google");
  EXPECT_EQ(vit->name(), "vit-base-patch16-224");
  EXPECT_EQ(vit->repoPath(), "google/vit-base-patch16-224");
  EXPECT_EQ(vit->folderName(), "google--vit-base-patch16-224");

  const Expected<ModelId> bert = ModelId::parse("bert-base-uncased");
  ASSERT_TRUE(bert.ok()) << bert.error();
  EXPECT_EQ(bert->owner(), "");
  EXPECT_EQ(bert->repoPath(), "bert-base-uncased");
  EXPECT_EQ(bert->folderName(), "bert-base-uncased");

  for (const char* good : {"a", "A_b.c-d/e.f_9", "_x/y_", "distilbert-base-uncased",
                           "sentence-transformers/all-MiniLM-L6-v2"}) {
    EXPECT_TRUE(ModelId::parse(good).ok()) << good;
  }
  EXPECT_TRUE(ModelId::parse(std::string(96, 'n')).ok());
}

TEST(ModelId, RefusesWhatCouldLeaveTheFolderOrIsNotAHubId) {
  const std::string too_long(97, 'n');
  for (const std::string& bad : std::vector<std::string>{
           "",         "..",          "../x",          "x/..",        "/abs",      "/etc/passwd",
           "a/b/c",    "owner/",      "/name",         "a..b",        "a--b",      "o--o/name",
           "name.git", "na me",       "-lead",         "trail-",      ".hidden",   "x/.y",
           too_long,   "ow ner/name", "owner/../name", "caf\xc3\xa9", "tab\tname", "back\\slash",
           "a:b"}) {
    const Expected<ModelId> id = ModelId::parse(bad);
    ASSERT_FALSE(id.ok()) << bad;
    EXPECT_EQ(id.error().rfind("model id \"" + bad + "\": ", 0), 0u) << id.error();
    EXPECT_EQ(id.error().find('\n'), std::string::npos) << id.error();
  }
  EXPECT_NE(ModelId::parse("a/b/c").error().find("more than one '/'"), std::string::npos);
  EXPECT_NE(ModelId::parse("na me").error().find("contains ' '"), std::string::npos);
  EXPECT_NE(ModelId::parse("a..b").error().find("\"..\""), std::string::npos);
  EXPECT_NE(ModelId::parse("../x").error().find("\"..\""), std::string::npos);
  EXPECT_NE(ModelId::parse(too_long).error().find("longer than 96"), std::string::npos);
}

TEST(ModelsFolder, FollowsXdgDataHomeThenHome) {
  const char* saved_xdg = std::getenv("XDG_DATA_HOME");
  const char* saved_home = std::getenv("HOME");
  const std::string xdg = saved_xdg ? saved_xdg : "", home = saved_home ? saved_home : "";

  ::setenv("XDG_DATA_HOME", "/data/xdg", 1);
  EXPECT_EQ(defaultModelsFolder(), "/data/xdg/attentionscope/models");
  ::setenv("XDG_DATA_HOME", "relative/is/ignored", 1);
  ::setenv("HOME", "/home/someone", 1);
  EXPECT_EQ(defaultModelsFolder(), "/home/someone/.local/share/attentionscope/models");
  ::unsetenv("XDG_DATA_HOME");
  EXPECT_EQ(defaultModelsFolder(), "/home/someone/.local/share/attentionscope/models");

  if (saved_xdg) ::setenv("XDG_DATA_HOME", xdg.c_str(), 1);
  if (saved_home) ::setenv("HOME", home.c_str(), 1);
}

}  // namespace
}  // namespace ascope
