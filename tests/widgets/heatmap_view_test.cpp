// HeatmapView's layout when the fonts grow (a projector's font zoom): the title may be wider than
// the cells' column, and still the colour scale keeps its own column beside square cells.
#include <QFont>
#include <QScrollArea>
#include <QTest>

#include "widget_test_util.h"
#include "widgets/common/heatmap_view.h"
#include "widgets/common/labeled_matrix.h"

namespace ascope {

class HeatmapViewTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void colourScaleKeepsItsColumnWhenTheTitleIsWiderThanTheCells() {
    // The enlarged-head view of a ViT run: CLS + 16 patches, labelled, in a 400 × 330 dock.
    LabeledMatrix m(17, 17, 0.0f);
    QStringList labels{QStringLiteral("CLS")};
    for (int i = 0; i < 16; ++i) labels << QString::number(i);
    m.row_labels = labels;
    m.col_labels = labels;
    for (int r = 0; r < 17; ++r)
      for (int c = 0; c < 17; ++c) m.at(r, c) = static_cast<float>((r * 17 + c) % 23) / 23.0f;

    // Laid out first at the desktop's font, then zoomed as a projector's Ctrl+= does.
    // In a scroll area, as the Attention dock holds it: its minimum size feeds back into its size.
    QScrollArea area;
    area.setWidgetResizable(true);
    auto* owned = new HeatmapView;
    area.setWidget(owned);
    HeatmapView& view = *owned;
    view.setKeepAspect(true);
    view.setDenseLabels(128, 5.0);
    view.setFixedRange(0.0, 1.0);
    view.setTitle(QStringLiteral("encoder self · rollout · layer 0 · head 0 · step 1200"));
    view.setAxisTitles(QStringLiteral("key (CLS, patches)"),
                       QStringLiteral("query (CLS, patches)"));
    view.setColorScaleLabel(QStringLiteral("attention weight · run scale"));
    view.setMatrix(m);
    QVERIFY(test::showAndSettle(&area, QSize(404, 334)));
    const double base = view.font().pointSizeF();
    for (double zoom : {1.0, 1.2, 1.44, 1.728}) {
      QFont font = view.font();
      font.setPointSizeF(base * zoom);
      view.setFont(font);
      test::settle();
      view.replot(QCustomPlot::rpImmediateRefresh);
      test::settle();

      const QRect cells = view.heatmapRect()->rect();
      const QRect scale = view.colorScale()->outerRect();
      const QByteArray where = "zoom " + QByteArray::number(zoom);
      // The colour scale asks for exactly the width of its bar, tick labels and label.
      QVERIFY2(
          scale.width() >= view.colorScale()->maximumSize().width(),
          (where + ": colour scale " + QByteArray::number(scale.width()) + " px wide").constData());
      QVERIFY2(scale.left() >= cells.right(), where.constData());
      // fitAspect() leaves margin changes of 2 px or less alone.
      QVERIFY2(std::abs(cells.width() - cells.height()) <= 3,
               (where + ": cells " + QByteArray::number(cells.width()) + " × " +
                QByteArray::number(cells.height()))
                   .constData());
    }
  }
};

}  // namespace ascope

QTEST_MAIN(ascope::HeatmapViewTest)
#include "heatmap_view_test.moc"
