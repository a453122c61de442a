#include "engine/builtin/shape_masks.h"

#include <array>
#include <cstdlib>

namespace ascope {
namespace {

struct Point {
  std::int64_t u;
  std::int64_t v;
};

/// Crossing-number test with the intersection compared by cross-multiplication, so no division.
template <std::size_t N>
bool insidePolygon(const std::array<Point, N>& polygon, std::int64_t u, std::int64_t v) {
  bool inside = false;
  for (std::size_t i = 0, j = N - 1; i < N; j = i++) {
    const Point& a = polygon[i];
    const Point& b = polygon[j];
    if ((a.v > v) == (b.v > v)) continue;
    const std::int64_t dv = b.v - a.v;
    const std::int64_t lhs = (u - a.u) * dv;
    const std::int64_t rhs = (v - a.v) * (b.u - a.u);
    if (dv > 0 ? lhs < rhs : lhs > rhs) inside = !inside;
  }
  return inside;
}

// Point-up triangle filling most of the box, so it covers about as many pixels as the square.
constexpr std::array<Point, 3> kTriangle{{{0, -1000}, {1024, 820}, {-1024, 820}}};

// Five-pointed star, inner radius 0.45 of the outer one: fatter arms stay visible at 12 px.
constexpr std::array<Point, 10> kStar{{{0, -964},
                                       {271, -313},
                                       {974, -256},
                                       {438, 202},
                                       {602, 888},
                                       {0, 521},
                                       {-602, 888},
                                       {-438, 202},
                                       {-974, -256},
                                       {-271, -313}}};

// Textured shapes fill a box of this half-size; smaller than kShapeUnit so rotated corners fit.
constexpr std::int64_t kBoxHalf = 900;
constexpr std::int64_t kBarHalfWidth = 330;

bool insideBox(std::int64_t u, std::int64_t v, std::int64_t half) {
  return std::llabs(u) <= half && std::llabs(v) <= half;
}

/// Which of `count` equal bands across the box the coordinate falls in (0 .. count - 1).
std::int64_t band(std::int64_t coordinate, std::int64_t count) {
  return (coordinate + kBoxHalf) * count / (2 * kBoxHalf + 1);
}

}  // namespace

std::string shapeName(ShapeKind kind) {
  switch (kind) {
    case ShapeKind::kCircle:
      return "circle";
    case ShapeKind::kSquare:
      return "square";
    case ShapeKind::kTriangle:
      return "triangle";
    case ShapeKind::kPlus:
      return "plus";
    case ShapeKind::kRing:
      return "ring";
    case ShapeKind::kDiamond:
      return "diamond";
    case ShapeKind::kHorizontalBars:
      return "horizontal bars";
    case ShapeKind::kVerticalBars:
      return "vertical bars";
    case ShapeKind::kChecker:
      return "checker";
    case ShapeKind::kStar:
      return "star";
  }
  return "unknown";
}

bool insideShape(ShapeKind kind, std::int64_t u, std::int64_t v) {
  const std::int64_t radius_squared = u * u + v * v;
  switch (kind) {
    case ShapeKind::kCircle:
      return radius_squared <= kShapeUnit * kShapeUnit;
    case ShapeKind::kSquare:
      return insideBox(u, v, 820);
    case ShapeKind::kTriangle:
      return insidePolygon(kTriangle, u, v);
    case ShapeKind::kPlus:
      return (std::llabs(u) <= kBarHalfWidth && std::llabs(v) <= kShapeUnit) ||
             (std::llabs(v) <= kBarHalfWidth && std::llabs(u) <= kShapeUnit);
    case ShapeKind::kRing:
      // Inner radius 0.58: the hole stays open and the band stays at least 2 px thick at 12 px.
      return radius_squared <= kShapeUnit * kShapeUnit && radius_squared >= 594 * 594;
    case ShapeKind::kDiamond:
      return std::llabs(u) + std::llabs(v) <= 1060;
    case ShapeKind::kHorizontalBars:
      // Three bars and two gaps: each band is still about 2 px high at the smallest size.
      return insideBox(u, v, kBoxHalf) && band(v, 5) % 2 == 0;
    case ShapeKind::kVerticalBars:
      return insideBox(u, v, kBoxHalf) && band(u, 5) % 2 == 0;
    case ShapeKind::kChecker:
      return insideBox(u, v, kBoxHalf) && (band(u, 4) + band(v, 4)) % 2 == 0;
    case ShapeKind::kStar:
      return insidePolygon(kStar, u, v);
  }
  return false;
}

}  // namespace ascope
