#include "fake_data.h"

#include <cmath>
#include <random>

namespace ascope::fake {
namespace {

// Row-wise softmax of scores, with -inf entries (masks) becoming exact zeros.
void softmaxRows(LabeledMatrix& m) {
  for (int r = 0; r < m.rows; ++r) {
    float max_v = -INFINITY;
    for (int c = 0; c < m.cols; ++c) max_v = std::max(max_v, m.at(r, c));
    double sum = 0;
    for (int c = 0; c < m.cols; ++c) {
      const float e = std::isinf(m.at(r, c)) ? 0.0f : std::exp(m.at(r, c) - max_v);
      m.at(r, c) = e;
      sum += e;
    }
    for (int c = 0; c < m.cols; ++c) m.at(r, c) = static_cast<float>(m.at(r, c) / sum);
  }
}

// One head: a preferred offset between query and key position ("previous token", "same token",
// "alignment"), plus noise that differs per layer and head.
LabeledMatrix head(const QStringList& queries, const QStringList& keys, double offset,
                   double sharpness, bool causal, std::mt19937& rng) {
  std::normal_distribution<float> noise(0.0f, 0.6f);
  LabeledMatrix m(queries.size(), keys.size());
  m.row_labels = queries;
  m.col_labels = keys;
  const double ratio = double(keys.size()) / queries.size();
  for (int r = 0; r < m.rows; ++r)
    for (int c = 0; c < m.cols; ++c) {
      const double target = r * ratio + offset;
      m.at(r, c) = static_cast<float>(-sharpness * std::abs(c - target)) + noise(rng);
      if (causal && c > r) m.at(r, c) = -INFINITY;
    }
  softmaxRows(m);
  return m;
}

}  // namespace

PositionalEncodingData sinusoidalEncoding(int positions, int dims) {
  PositionalEncodingData pe;
  pe.kind = PositionalEncodingKind::Sinusoidal;
  pe.matrix = LabeledMatrix(positions, dims);
  for (int p = 0; p < positions; ++p)
    for (int i = 0; i < dims; ++i) {
      const double freq = std::pow(10000.0, -(2 * (i / 2)) / double(dims));
      pe.matrix.at(p, i) = static_cast<float>(i % 2 == 0 ? std::sin(p * freq) : std::cos(p * freq));
    }
  return pe;
}

PositionalEncodingData learnedPatchEncoding(int grid_rows, int grid_cols, int dims) {
  std::mt19937 rng(7);
  std::normal_distribution<float> noise(0.0f, 0.35f);
  std::uniform_real_distribution<float> phase(0.0f, 6.28f);
  PositionalEncodingData pe;
  pe.kind = PositionalEncodingKind::Learned;
  pe.grid_rows = grid_rows;
  pe.grid_cols = grid_cols;
  pe.has_cls_row = true;
  pe.matrix = LabeledMatrix(1 + grid_rows * grid_cols, dims);
  pe.matrix.row_labels << QStringLiteral("CLS");
  for (int p = 1; p <= grid_rows * grid_cols; ++p) pe.matrix.row_labels << QString::number(p);
  std::vector<float> row_phase(dims), col_phase(dims);
  for (int d = 0; d < dims; ++d) {
    row_phase[d] = phase(rng);
    col_phase[d] = phase(rng);
  }
  for (int d = 0; d < dims; ++d) pe.matrix.at(0, d) = noise(rng);
  for (int r = 0; r < grid_rows; ++r)
    for (int c = 0; c < grid_cols; ++c)
      for (int d = 0; d < dims; ++d) {
        // half the dimensions code the row, half the column, at a few frequencies
        const double f = 0.2 + (d % 8) * 0.07;  // low frequencies: neighbours look alike
        const double v =
            d % 2 == 0 ? std::sin(r * f + row_phase[d]) : std::sin(c * f + col_phase[d]);
        pe.matrix.at(1 + r * grid_cols + c, d) = static_cast<float>(v) + noise(rng);
      }
  return pe;
}

AttentionPlotData translationAttention(int layers, int heads) {
  const QStringList source = {"the", "black", "cat", "sat", "on", "the", "mat", "."};
  const QStringList target = {"<bos>", "le",  "chat", "noir",  "était",
                              "assis", "sur", "le",   "tapis", "."};
  std::mt19937 rng(42);
  AttentionPlotData snapshot;
  snapshot.step = 1200;
  const double offsets[] = {-1.0, 0.0, 1.0, 0.0};
  const double sharp[] = {2.5, 3.0, 2.0, 0.4};
  auto build = [&](const QString& name, const QStringList& q, const QStringList& k, bool causal,
                   const QString& q_title, const QString& k_title) {
    AttentionPlotGroup group;
    group.name = name;
    group.query_title = q_title;
    group.key_title = k_title;
    group.causal = causal;
    // Decoder rows: row i is fed target token i and predicts token i + 1.
    if (q == target) group.row_predictions = target.mid(1) << QStringLiteral("<eos>");
    for (int l = 0; l < layers; ++l) {
      std::vector<LabeledMatrix> layer;
      for (int h = 0; h < heads; ++h)
        layer.push_back(head(q, k, offsets[h % 4], sharp[h % 4] * (1.0 + 0.3 * l), causal, rng));
      group.layers.push_back(std::move(layer));
    }
    snapshot.groups.push_back(std::move(group));
  };
  build(QStringLiteral("encoder self"), source, source, false, QStringLiteral("query (source)"),
        QStringLiteral("key (source)"));
  build(QStringLiteral("decoder self"), target, target, true, QStringLiteral("query (target)"),
        QStringLiteral("key (target)"));
  build(QStringLiteral("cross"), target, source, false, QStringLiteral("target token"),
        QStringLiteral("source token"));
  return snapshot;
}

RgbImage ballImage() {
  RgbImage image;
  image.width = 32;
  image.height = 32;
  image.planar.resize(3 * 32 * 32);
  for (int y = 0; y < 32; ++y)
    for (int x = 0; x < 32; ++x) {
      int r = 120, g = 180, b = 235;                       // sky
      if (y > 20) r = 70, g = 150 - (y - 20) * 3, b = 60;  // grass
      const double d = std::hypot(x - 15.5, y - 17.0);
      if (d < 7.5) {  // red ball with a highlight
        const double shade = 1.0 - 0.5 * d / 7.5;
        r = static_cast<int>(230 * shade);
        g = static_cast<int>(40 * shade);
        b = static_cast<int>(40 * shade);
        if (std::hypot(x - 13.0, y - 14.0) < 2.0) r = 255, g = 200, b = 200;
      }
      const int i = y * 32 + x;
      image.planar[i] = static_cast<uint8_t>(r);
      image.planar[1024 + i] = static_cast<uint8_t>(g);
      image.planar[2048 + i] = static_cast<uint8_t>(b);
    }
  return image;
}

AttentionPlotData visionAttention(int layers, int heads) {
  const int grid = 8;
  QStringList tokens{QStringLiteral("CLS")};
  for (int p = 1; p <= grid * grid; ++p) tokens << QString::number(p);  // ViT numbers from 1
  std::mt19937 rng(3);
  std::normal_distribution<float> noise(0.0f, 0.5f);
  AttentionPlotData snapshot;
  snapshot.step = 2400;
  AttentionPlotGroup group;
  group.name = QStringLiteral("encoder self");
  group.query_title = QStringLiteral("query token");
  group.key_title = QStringLiteral("key token");
  for (int l = 0; l < layers; ++l) {
    std::vector<LabeledMatrix> layer;
    for (int h = 0; h < heads; ++h) {
      LabeledMatrix m(tokens.size(), tokens.size());
      m.row_labels = tokens;
      m.col_labels = tokens;
      for (int q = 0; q < m.rows; ++q)
        for (int k = 0; k < m.cols; ++k) {
          float s = noise(rng);
          if (k > 0) {
            const int kr = (k - 1) / grid, kc = (k - 1) % grid;
            if (q == 0) {  // CLS looks at the ball in the middle, more sharply in later layers
              s = 0.3f * s + static_cast<float>(-(0.9 + 0.4 * l) * std::hypot(kr - 4.2, kc - 3.6));
            } else {  // patches look at their neighbourhood
              const int qr = (q - 1) / grid, qc = (q - 1) % grid;
              s += static_cast<float>(-(1.0 + h) * std::hypot(kr - qr, kc - qc) * 0.6);
            }
          }
          m.at(q, k) = s;
        }
      softmaxRows(m);
      layer.push_back(std::move(m));
    }
    group.layers.push_back(std::move(layer));
  }
  snapshot.groups.push_back(std::move(group));
  snapshot.image.image = ballImage();
  snapshot.image.grid_rows = grid;
  snapshot.image.grid_cols = grid;
  snapshot.image.has_cls_token = true;
  return snapshot;
}

std::vector<SeriesPoint> trainLoss(int steps) {
  std::mt19937 rng(1);
  std::normal_distribution<double> noise(0.0, 1.0);
  std::vector<SeriesPoint> out;
  for (int s = 1; s <= steps; ++s) {
    const double mean = 2.0 * std::exp(-s / 700.0) + 0.35 + 0.15 * std::exp(-s / 3000.0);
    out.push_back({double(s), std::max(0.02, mean * (1.0 + 0.18 * noise(rng)))});
  }
  return out;
}

std::vector<SeriesPoint> validationLoss(int steps, int steps_per_epoch) {
  std::vector<SeriesPoint> out;
  for (int s = steps_per_epoch; s <= steps; s += steps_per_epoch)
    out.push_back({double(s), 1.9 * std::exp(-s / 750.0) + 0.45 + s / 40000.0});
  return out;
}

std::vector<SeriesPoint> trainAccuracy(int steps) {
  std::mt19937 rng(2);
  std::normal_distribution<double> noise(0.0, 0.04);
  std::vector<SeriesPoint> out;
  for (int s = 1; s <= steps; ++s) {
    const double mean = 0.1 + 0.78 * (1.0 - std::exp(-s / 800.0));
    out.push_back({double(s), std::clamp(mean + noise(rng), 0.0, 1.0)});
  }
  return out;
}

std::vector<SeriesPoint> validationAccuracy(int steps, int steps_per_epoch) {
  std::vector<SeriesPoint> out;
  for (int s = steps_per_epoch; s <= steps; s += steps_per_epoch)
    out.push_back({double(s), 0.1 + 0.72 * (1.0 - std::exp(-s / 850.0))});
  return out;
}

std::vector<HeadStatsMetric> headStatsMetrics() {
  return {
      {QStringLiteral("entropy"),
       QStringLiteral("Entropy of the attention weights (nats): low = focused"), false},
      {QStringLiteral("distance"),
       QStringLiteral("Mean distance |query − key| in tokens, weighted by attention"), false},
      {QStringLiteral("special_mass"),
       QStringLiteral("Attention mass on special tokens (<s>, </s>, padding)"), true},
      {QStringLiteral("first_token_mass"), QStringLiteral("Attention mass on the first token"),
       true},
      {QStringLiteral("max_weight"), QStringLiteral("Mean of each query's largest weight"), true},
      {QStringLiteral("diagonal"), QStringLiteral("Attention mass on the same position"), true},
      {QStringLiteral("previous_token"), QStringLiteral("Attention mass on the previous token"),
       true},
      {QStringLiteral("next_token"), QStringLiteral("Attention mass on the next token"), true},
  };
}

std::vector<HeadStatsProbe> headStatistics(int layers, int heads, int probes, int probe_every) {
  std::mt19937 rng(11);
  std::normal_distribution<double> noise(0.0, 0.02);
  const QStringList groups{QStringLiteral("encoder"), QStringLiteral("decoder self"),
                           QStringLiteral("cross")};
  std::vector<HeadStatsProbe> out;
  for (int p = 0; p < probes; ++p) {
    HeadStatsProbe probe;
    probe.step = static_cast<std::int64_t>(p + 1) * probe_every;
    const double t = double(p) / std::max(1, probes - 1);  // 0 .. 1 over the run
    for (int g = 0; g < groups.size(); ++g) {
      for (int l = 0; l < layers; ++l) {
        for (int h = 0; h < heads; ++h) {
          // Each head specialises at its own time into one of four kinds.
          const int kind = (l * 3 + h + g) % 4;
          const double onset = 0.15 + 0.6 * ((l * 7 + h * 5 + g) % 11) / 10.0;
          const double s = 1.0 / (1.0 + std::exp(-(t - onset) * 14.0));  // 0 → 1 at the onset
          const auto add = [&](const char* metric, double v, bool unit) {
            v += noise(rng);
            if (unit) v = std::clamp(v, 0.0, 1.0);
            probe.rows.push_back({groups[g], l, h, QString::fromLatin1(metric), std::max(0.0, v)});
          };
          add("entropy", 2.6 - 1.9 * s * (kind == 3 ? 0.4 : 1.0), false);
          add("distance", kind == 3 ? 1.5 + 5.5 * s : 4.0 - 2.8 * s + 0.3 * l, false);
          add("special_mass", 0.1 + (kind == 3 ? 0.5 * s : 0.0), true);
          add("first_token_mass", 0.08 + 0.3 * s * (h % 3 == 0 ? 1.0 : 0.1), true);
          add("max_weight", 0.15 + 0.7 * s * (kind == 3 ? 0.3 : 1.0), true);
          add("diagonal", 0.1 + (kind == 0 ? 0.8 * s : 0.0), true);
          add("previous_token", 0.1 + (kind == 1 ? 0.8 * s : 0.0), true);
          add("next_token", 0.1 + (kind == 2 ? 0.75 * s : 0.0), true);
        }
      }
    }
    out.push_back(std::move(probe));
  }
  return out;
}

std::vector<HeadKindNote> headKindNotes() {
  return {
      {1200, QStringLiteral("encoder"), 0, 1, QStringLiteral("became previous-token (0.78)")},
      {2600, QStringLiteral("encoder"), 1, 0, QStringLiteral("became diagonal (0.84)")},
      {3400, QStringLiteral("cross"), 1, 2, QStringLiteral("became next-token (0.71)")},
      {4100, QStringLiteral("encoder"), 0, 1, QStringLiteral("became attend-to-<s> (0.55)")},
  };
}

HeadAblationData headAblation(int layers, int heads) {
  HeadAblationData data;
  data.figures = {{QStringLiteral("bleu"), QStringLiteral("BLEU"), true, 1}};
  data.baseline = {0.48, 0.812, {23.4}, 512};
  const QStringList groups{QStringLiteral("encoder self"), QStringLiteral("decoder self"),
                           QStringLiteral("cross")};
  for (int g = 0; g < groups.size(); ++g) {
    for (int l = 0; l < layers; ++l) {
      for (int h = 0; h < heads; ++h) {
        // Most heads cost a fraction of a point, one in five costs several, one in seven helps.
        const int k = (l * 5 + h * 3 + g) % 7;
        const double cost = k == 0 ? -0.004 : (l + h + g) % 5 == 0 ? 0.03 + 0.01 * l : 0.003 * k;
        data.rows.push_back({groups[g],
                             l,
                             h,
                             HeadAblationKind::DropHead,
                             0.48 + cost * 1.5,
                             0.812 - cost,
                             {23.4 - cost * 60.0}});
        const double keep = 0.25 + 0.05 * ((h + l + g) % 4);
        data.rows.push_back({groups[g],
                             l,
                             h,
                             HeadAblationKind::KeepOnlyHead,
                             0.48 + keep * 2.0,
                             0.812 - keep,
                             {23.4 - keep * 40.0}});
      }
      const double layer_cost = 0.12 + 0.08 * (layers - l) / layers;
      data.rows.push_back({groups[g],
                           l,
                           -1,
                           HeadAblationKind::DropLayer,
                           0.48 + layer_cost * 3,
                           0.812 - layer_cost,
                           {23.4 - layer_cost * 70.0}});
    }
  }
  return data;
}

QPalette darkPalette() {
  QPalette p;
  p.setColor(QPalette::Window, QColor(0x2b, 0x2d, 0x30));
  p.setColor(QPalette::WindowText, QColor(0xe6, 0xe6, 0xe6));
  p.setColor(QPalette::Base, QColor(0x1e, 0x1f, 0x22));
  p.setColor(QPalette::AlternateBase, QColor(0x2b, 0x2d, 0x30));
  p.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
  p.setColor(QPalette::Button, QColor(0x3c, 0x3f, 0x41));
  p.setColor(QPalette::ButtonText, QColor(0xe6, 0xe6, 0xe6));
  p.setColor(QPalette::ToolTipBase, QColor(0x3c, 0x3f, 0x41));
  p.setColor(QPalette::ToolTipText, QColor(0xe6, 0xe6, 0xe6));
  p.setColor(QPalette::Highlight, QColor(0x3d, 0x8e, 0xe6));
  p.setColor(QPalette::HighlightedText, Qt::white);
  p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9a, 0x9a));
  p.setColor(QPalette::Mid, QColor(0x55, 0x58, 0x5c));
  return p;
}

}  // namespace ascope::fake
