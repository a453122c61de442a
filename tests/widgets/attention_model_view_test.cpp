// AttentionModelView: every layer × head as a thumbnail, rows = layers and columns = heads; long
// inputs max-pooled so a one-token peak survives, causal cells drawn masked, each head on its own
// scale; thumbnails laid out in order without overlap, and a click names its layer and head.
#include <QSignalSpy>
#include <QTest>

#include <cmath>

#include "widget_test_util.h"
#include "widgets/attention/attention_head_display.h"
#include "widgets/attention/attention_model_view.h"
#include "widgets/common/plot_theme.h"

namespace ascope {
namespace {

/// Causal heads over `tokens` tokens, uniform over what each query sees, except one peak per head
/// at a place that differs by layer and head (and falls inside a pooled block, not on its corner).
AttentionPlotGroup causalGroup(int layers, int heads, int tokens) {
  AttentionPlotGroup group;
  group.name = QStringLiteral("decoder self");
  group.causal = true;
  for (int l = 0; l < layers; ++l) {
    std::vector<LabeledMatrix> layer;
    for (int h = 0; h < heads; ++h) {
      LabeledMatrix m(tokens, tokens, 0.0f);
      for (int r = 0; r < tokens; ++r) {
        for (int c = 0; c <= r; ++c) m.at(r, c) = 0.5f / static_cast<float>(r + 1);
      }
      const int row = tokens - 1 - 3 * (l + h), col = 5 + 9 * h + l;
      m.at(row, col) = 0.9f;
      for (int i = 0; i < tokens; ++i) m.col_labels << QStringLiteral("t%1").arg(i);
      m.row_labels = m.col_labels;
      layer.push_back(std::move(m));
    }
    group.layers.push_back(std::move(layer));
  }
  return group;
}

}  // namespace

class AttentionModelViewTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void longInputsArePooledWithTheirPeaksAndMasks();
  void thumbnailsAreLaidOutByLayerAndHead();
  void clickNamesTheLayerAndHead();
  void clearLeavesNothingToClick();
};

void AttentionModelViewTest::longInputsArePooledWithTheirPeaksAndMasks() {
  AttentionModelView view;
  const int tokens = 200;  // pool 4 (200 / 64 rounded up): 50 × 50 thumbnails
  view.setGroup(causalGroup(3, 5, tokens));
  QCOMPARE(view.layerCount(), 3);
  QCOMPARE(view.headCount(), 5);
  QCOMPARE(view.groupName(), QStringLiteral("decoder self"));
  QCOMPARE(view.tokens().size(), tokens);
  QCOMPARE(view.tokens().front(), QStringLiteral("t0"));
  const PlotTheme theme = PlotTheme::fromPalette(view.palette(), view.font());
  QCPColorGradient gradient = AttentionHeadDisplay::gradient(theme);
  const QRgb top = gradient.color(1.0, QCPRange(0.0, 1.0));
  const QRgb masked = AttentionHeadDisplay::maskedColor(theme).rgb();
  for (int l = 0; l < 3; ++l) {
    for (int h = 0; h < 5; ++h) {
      const QImage image = view.thumbnail(l, h);
      QCOMPARE(image.size(), QSize(50, 50));
      const int row = tokens - 1 - 3 * (l + h), col = 5 + 9 * h + l;
      QCOMPARE(image.pixel(col / 4, row / 4), top);
      // Every other block holds no peak: darker than the top colour.
      QVERIFY(image.pixel((col / 4 + 7) % 50, 49) != top);
      QCOMPARE(image.pixel(49, 0), masked);  // keys after the query: never seen
    }
  }
  QVERIFY(view.thumbnail(3, 0).isNull());
  QVERIFY(view.thumbnail(0, 5).isNull());
  QVERIFY(view.thumbnail(-1, 0).isNull());
}

void AttentionModelViewTest::thumbnailsAreLaidOutByLayerAndHead() {
  AttentionModelView view;
  view.setGroup(causalGroup(4, 3, 20));
  QVERIFY(test::showAndSettle(&view, QSize(700, 500)));
  for (int l = 0; l < 4; ++l) {
    for (int h = 0; h < 3; ++h) {
      const QRect r = view.thumbnailRect(l, h);
      QVERIFY(!r.isEmpty());
      QCOMPARE(r.width(), r.height());
      QVERIFY(view.rect().contains(r));
      if (h > 0) {
        QVERIFY(r.left() > view.thumbnailRect(l, h - 1).right());
        QCOMPARE(r.top(), view.thumbnailRect(l, h - 1).top());
      }
      if (l > 0) {
        QVERIFY(r.top() > view.thumbnailRect(l - 1, h).bottom());
        QCOMPARE(r.left(), view.thumbnailRect(l - 1, h).left());
      }
    }
  }
  // Four layers stacked in 500 px: the height decides the side, and the thumbnails use it.
  QVERIFY(view.thumbnailRect(0, 0).height() * 4 > 500 / 2);
  QVERIFY(view.thumbnailRect(4, 0).isEmpty());
}

void AttentionModelViewTest::clickNamesTheLayerAndHead() {
  AttentionModelView view;
  view.setGroup(causalGroup(2, 4, 12));
  QVERIFY(test::showAndSettle(&view, QSize(800, 500)));
  QSignalSpy clicked(&view, &AttentionModelView::headClicked);
  QTest::mouseClick(&view, Qt::LeftButton, {}, view.thumbnailRect(1, 3).center());
  QCOMPARE(clicked.count(), 1);
  QCOMPARE(clicked.front().at(0).toInt(), 1);
  QCOMPARE(clicked.front().at(1).toInt(), 3);
  QCOMPARE(view.selectedLayer(), 1);
  QCOMPARE(view.selectedHead(), 3);
  QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(2, 2));  // the margin: nothing
  QTest::mouseClick(&view, Qt::RightButton, {}, view.thumbnailRect(0, 0).center());
  QCOMPARE(clicked.count(), 1);
  QCOMPARE(view.selectedLayer(), 1);
}

void AttentionModelViewTest::clearLeavesNothingToClick() {
  AttentionModelView view;
  view.setGroup(causalGroup(2, 2, 8));
  view.setSelectedHead(1, 1);
  view.clear();
  QVERIFY(test::showAndSettle(&view, QSize(400, 300)));
  QCOMPARE(view.layerCount(), 0);
  QCOMPARE(view.headCount(), 0);
  QVERIFY(view.tokens().isEmpty());
  QCOMPARE(view.selectedLayer(), -1);
  int layer = -1, head = -1;
  QVERIFY(!view.headAt(view.rect().center(), &layer, &head));
  QVERIFY(!view.grab().isNull());  // the hint paints without any head
}

}  // namespace ascope

QTEST_MAIN(ascope::AttentionModelViewTest)
#include "attention_model_view_test.moc"
