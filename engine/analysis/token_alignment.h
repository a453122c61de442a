#pragma once
// How the tokens of two inputs that differ in one place line up ("a big dog" and "a small dog"):
// the tokens both start with, the tokens both end with, and between them the span that changed,
// which may be empty on one side (a word inserted or dropped). Comparing a minimal pair's
// attention (engine/analysis/minimal_pair.h) needs rows and columns that mean the same token on
// both sides.
#include <string>
#include <vector>

namespace ascope {

/// Input a's tokens are a[0, prefix) + a[prefix, prefix + a_changed) + the last `suffix`;
/// input b's likewise with b_changed. The prefix and suffix are the same tokens on both sides.
struct TokenAlignment {
  int prefix = 0;     ///< tokens both inputs start with
  int suffix = 0;     ///< tokens both inputs end with, after the prefix
  int a_changed = 0;  ///< tokens of a between its prefix and its suffix
  int b_changed = 0;  ///< tokens of b between them

  /// Whether there is a changed span on either side (identical inputs have none).
  bool changed() const { return a_changed > 0 || b_changed > 0; }
  /// Positions once lined up: the prefix, one for the changed span when there is one, the suffix.
  int alignedCount() const { return prefix + (changed() ? 1 : 0) + suffix; }
  /// The lined-up position of the changed span; -1 when nothing changed.
  int changedPosition() const { return changed() ? prefix : -1; }
  /// The first token of side a (`side_b` false) or b that one lined-up position stands for, and
  /// how many it stands for: 1 in the prefix and suffix, the side's span (maybe 0) for the
  /// changed position.
  int firstToken(int position, bool side_b) const;
  int tokenCount(int position, bool side_b) const;
};

/// The longest common prefix of `a` and `b`, then the longest common suffix of what is left (so
/// the two never overlap: "a b b c" and "a b c" keep "a b" and "c", and a's second "b" changed).
TokenAlignment alignTokens(const std::vector<std::string>& a, const std::vector<std::string>& b);

/// `count` tokens on both sides, the one at `position` changed: an image and the same image with
/// one patch occluded have the same tokens, and the occluded patch is the one that changed.
TokenAlignment alignChangedToken(int count, int position);

}  // namespace ascope
