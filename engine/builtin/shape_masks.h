#pragma once
// The ten shapes of the built-in image dataset as inside/outside tests. They are told apart by
// outline and texture only (colour is random per image), and drawn with integer arithmetic so the
// rasterised pixels are identical on every compiler and CPU (no libm, no FMA contraction).
#include <cstdint>
#include <string>

namespace ascope {

enum class ShapeKind {
  kCircle,
  kSquare,
  kTriangle,
  kPlus,
  kRing,
  kDiamond,
  kHorizontalBars,
  kVerticalBars,
  kChecker,
  kStar,
};

constexpr int kShapeKindCount = 10;

/// Shape coordinates: the shape's half-size is kShapeUnit; u grows rightwards, v downwards.
constexpr std::int64_t kShapeUnit = 1024;

/// Readable class name, e.g. "horizontal bars".
std::string shapeName(ShapeKind kind);

/// Whether the point (u, v), in shape units around the shape's centre, is painted.
bool insideShape(ShapeKind kind, std::int64_t u, std::int64_t v);

}  // namespace ascope
