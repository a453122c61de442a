#include "widgets/samples/sample_panel.h"

#include "widgets/common/empty_hint.h"
#include "widgets/common/export_menu.h"
#include "widgets/common/plot_exporter.h"
#include "widgets/common/plot_theme.h"
#include "widgets/images/pixel_image_view.h"
#include "widgets/samples/text_alignment_view.h"
#include "widgets/samples/word_diff.h"

#include <QContextMenuEvent>
#include <QEvent>
#include <QLabel>
#include <QMenu>
#include <QStackedWidget>
#include <QTextBrowser>
#include <QTextStream>
#include <QVBoxLayout>

namespace ascope {
namespace {

enum SamplePage { kEmptyPage, kImagePage, kTextPage, kTranslationPage, kAlignmentPage };

QLabel* makeVerdictLabel(QWidget* parent) {
  auto* label = new QLabel(parent);
  label->setTextFormat(Qt::RichText);
  label->setAlignment(Qt::AlignCenter);
  label->setWordWrap(true);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  QFont font = label->font();
  font.setPointSizeF(font.pointSizeF() * 1.25);
  label->setFont(font);
  return label;
}

QTextBrowser* makeBrowser(QWidget* parent) {
  auto* browser = new QTextBrowser(parent);
  browser->setOpenLinks(false);
  browser->setFrameShape(QFrame::NoFrame);
  QFont font = browser->font();
  font.setPointSizeF(font.pointSizeF() * 1.15);
  browser->setFont(font);
  browser->setContextMenuPolicy(Qt::NoContextMenu);  // the panel's own menu offers export
  return browser;
}

}  // namespace

SamplePanel::SamplePanel(QWidget* parent) : QWidget(parent) {
  auto* hint = new EmptyHint(tr("The probe sample appears after the first probe step"), this);

  auto* image_page = new QWidget(this);
  image_view_ = new PixelImageView(image_page);
  image_verdict_ = makeVerdictLabel(image_page);
  auto* image_layout = new QVBoxLayout(image_page);
  image_layout->addWidget(image_view_, 1);
  image_layout->addWidget(image_verdict_);

  auto* text_page = new QWidget(this);
  text_verdict_ = makeVerdictLabel(text_page);
  text_view_ = makeBrowser(text_page);
  auto* text_layout = new QVBoxLayout(text_page);
  text_layout->addWidget(text_verdict_);
  text_layout->addWidget(text_view_, 1);

  translation_view_ = makeBrowser(this);

  auto* alignment_page = new QWidget(this);
  alignment_input_ = new QLabel(alignment_page);
  alignment_input_->setTextFormat(Qt::RichText);
  alignment_input_->setWordWrap(true);
  alignment_input_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  alignment_view_ = new TextAlignmentView(alignment_page);
  auto* alignment_layout = new QVBoxLayout(alignment_page);
  alignment_layout->addWidget(alignment_input_);
  alignment_layout->addWidget(alignment_view_);
  alignment_layout->addStretch(1);

  stack_ = new QStackedWidget(this);
  stack_->insertWidget(kEmptyPage, hint);
  stack_->insertWidget(kImagePage, image_page);
  stack_->insertWidget(kTextPage, text_page);
  stack_->insertWidget(kTranslationPage, translation_view_);
  stack_->insertWidget(kAlignmentPage, alignment_page);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(stack_);

  setContextMenuPolicy(Qt::CustomContextMenu);
  connect(this, &QWidget::customContextMenuRequested, this,
          [this](const QPoint& pos) { showContextMenu(mapToGlobal(pos)); });
  for (QTextBrowser* browser : {text_view_, translation_view_}) {
    browser->viewport()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(browser->viewport(), &QWidget::customContextMenuRequested, this,
            [this, browser](const QPoint& pos) {
              showContextMenu(browser->viewport()->mapToGlobal(pos));
            });
  }
}

void SamplePanel::setImagePrediction(const ImagePrediction& prediction) {
  image_ = prediction;
  mode_ = Mode::Image;
  render();
}

void SamplePanel::setTextPrediction(const TextPrediction& prediction) {
  text_ = prediction;
  mode_ = Mode::Text;
  render();
}

void SamplePanel::setTranslation(const TranslationPrediction& translation) {
  translation_ = translation;
  mode_ = Mode::Translation;
  render();
}

void SamplePanel::setAlignment(const AlignmentPrediction& alignment) {
  alignment_ = alignment;
  mode_ = Mode::Alignment;
  render();
}

void SamplePanel::clear() {
  mode_ = Mode::Empty;
  render();
}

bool SamplePanel::isCorrect() const {
  if (mode_ == Mode::Image) return image_.true_label == image_.predicted_label;
  if (mode_ == Mode::Text) return text_.true_label == text_.predicted_label;
  if (mode_ == Mode::Translation)
    return translation_.reference.simplified() == translation_.hypothesis.simplified();
  if (mode_ == Mode::Alignment) return alignment_view_->distance() == 0;
  return false;
}

QLabel* SamplePanel::verdictLabel() const {
  return mode_ == Mode::Text ? text_verdict_ : image_verdict_;
}

void SamplePanel::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  // Verdict colours and highlights come from the palette; redo them for light/dark switches.
  if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) render();
}

QString SamplePanel::verdictHtml(const QString& true_label, const QString& predicted,
                                 float probability) const {
  const PlotTheme theme = PlotTheme::fromPalette(palette(), font());
  const bool known = !true_label.isEmpty();
  const bool right = known && true_label == predicted;
  const QColor color = !known ? theme.foreground : right ? theme.good : theme.bad;
  const QString mark = !known ? QString() : right ? QStringLiteral(" ✓") : QStringLiteral(" ✗");
  QString html;
  if (known)
    html += tr("<span style='color:%1'>true</span> <b>%2</b> &nbsp;&nbsp; ")
                .arg(theme.muted.name(), true_label.toHtmlEscaped());
  html += tr("<span style='color:%1'>predicted</span> <b style='color:%2'>%3%4</b> "
             "<span style='color:%2'>(%5 %)</span>")
              .arg(theme.muted.name(), color.name(), predicted.toHtmlEscaped(), mark,
                   QString::number(100.0 * probability, 'f', 1));
  return html;
}

QString SamplePanel::translationHtml() const {
  const PlotTheme theme = PlotTheme::fromPalette(palette(), font());
  const WordDiff diff = WordDiff::compare(translation_.reference, translation_.hypothesis);
  auto words = [](const std::vector<DiffWord>& list, const QString& unmatched_style) {
    QStringList parts;
    for (const DiffWord& w : list)
      parts << (w.matched ? w.text.toHtmlEscaped()
                          : QStringLiteral("<span style='%1'>%2</span>")
                                .arg(unmatched_style, w.text.toHtmlEscaped()));
    return parts.join(QLatin1Char(' '));
  };
  QColor bad_bg = theme.bad;
  bad_bg.setAlpha(theme.dark ? 110 : 60);
  const QString missing_style =
      QStringLiteral("color:%1; text-decoration:underline; font-weight:600")
          .arg(theme.warning.name());
  const QString wrong_style =
      QStringLiteral("background-color:%1; font-weight:600").arg(bad_bg.name(QColor::HexArgb));
  auto section = [&theme](const QString& title, const QString& body) {
    return QStringLiteral(
               "<p style='margin-bottom:14px'><span style='color:%1; font-size:small'>"
               "%2</span><br>%3</p>")
        .arg(theme.muted.name(), title.toUpper(), body);
  };
  QString html = section(tr("Source"), translation_.source.toHtmlEscaped());
  if (translation_.reference.isEmpty()) {
    // The user's own sentence has no reference: nothing to compare, nothing marked wrong.
    html += section(tr("Model output"), translation_.hypothesis.toHtmlEscaped());
    html += QStringLiteral("<p style='color:%1; font-size:small'>%2</p>")
                .arg(theme.muted.name(), tr("your own sentence: no reference to compare with"));
    return html;
  }
  html += section(tr("Reference"), words(diff.reference, missing_style));
  const QString output = translation_.translated_at_step >= 0
                             ? tr("Model output · step %1").arg(translation_.translated_at_step)
                             : tr("Model output");
  html += section(output, words(diff.hypothesis, wrong_style));
  html += QStringLiteral("<p style='color:%1; font-size:small'>%2</p>")
              .arg(theme.muted.name(),
                   tr("%1 of %2 output words match the reference · "
                      "<span style='%3'>missing</span> · <span style='%4'>different</span>")
                       .arg(diff.matchedCount())
                       .arg(diff.hypothesis.size())
                       .arg(missing_style, wrong_style));
  return html;
}

void SamplePanel::render() {
  switch (mode_) {
    case Mode::Empty:
      stack_->setCurrentIndex(kEmptyPage);
      break;
    case Mode::Image:
      image_view_->setImage(image_.image.toQImage());
      image_verdict_->setText(
          verdictHtml(image_.true_label, image_.predicted_label, image_.probability));
      stack_->setCurrentIndex(kImagePage);
      break;
    case Mode::Text:
      text_verdict_->setText(
          verdictHtml(text_.true_label, text_.predicted_label, text_.probability));
      text_view_->setPlainText(text_.text);
      stack_->setCurrentIndex(kTextPage);
      break;
    case Mode::Translation:
      translation_view_->setHtml(translationHtml());
      stack_->setCurrentIndex(kTranslationPage);
      break;
    case Mode::Alignment: {
      const PlotTheme theme = PlotTheme::fromPalette(palette(), font());
      alignment_input_->setText(QStringLiteral("<span style='color:%1'>%2</span> <b>%3</b>")
                                    .arg(theme.muted.name(), alignment_.input_title.toHtmlEscaped(),
                                         alignment_.input.toHtmlEscaped()));
      alignment_view_->setAlignment(alignment_);
      stack_->setCurrentIndex(kAlignmentPage);
      break;
    }
  }
}

void SamplePanel::showContextMenu(const QPoint& global_pos) {
  if (mode_ == Mode::Empty) return;
  QMenu menu(this);
  ExportMenu::addActions(&menu, this, this);
  menu.exec(global_pos);
}

ExportResult SamplePanel::exportImage(const QString& path, ImageFormat format,
                                      const ExportSize& size) {
  return PlotExporter::saveWidget(stack_->currentWidget(), path, format, size);
}

ExportResult SamplePanel::exportCsv(const QString& path) const {
  QList<QPair<QString, QString>> rows;
  switch (mode_) {
    case Mode::Empty:
      break;
    case Mode::Image:
      rows = {{QStringLiteral("true_label"), image_.true_label},
              {QStringLiteral("predicted_label"), image_.predicted_label},
              {QStringLiteral("probability"), QString::number(image_.probability, 'g', 6)},
              {QStringLiteral("width"), QString::number(image_.image.width)},
              {QStringLiteral("height"), QString::number(image_.image.height)}};
      break;
    case Mode::Text:
      rows = {{QStringLiteral("text"), text_.text},
              {QStringLiteral("true_label"), text_.true_label},
              {QStringLiteral("predicted_label"), text_.predicted_label},
              {QStringLiteral("probability"), QString::number(text_.probability, 'g', 6)}};
      break;
    case Mode::Translation:
      rows = {{QStringLiteral("source"), translation_.source},
              {QStringLiteral("reference"), translation_.reference},
              {QStringLiteral("hypothesis"), translation_.hypothesis}};
      break;
    case Mode::Alignment: {
      QString reference, answer, edits;
      for (const AlignedColumn& c : alignment_.columns) {
        reference += c.reference.isEmpty() ? QStringLiteral("-") : c.reference;
        answer += c.answer.isEmpty() ? QStringLiteral("-") : c.answer;
        edits += c.edit == AlignedColumn::Edit::Match        ? QLatin1Char('=')
                 : c.edit == AlignedColumn::Edit::Substitute ? QLatin1Char('x')
                 : c.edit == AlignedColumn::Edit::Delete     ? QLatin1Char('-')
                                                             : QLatin1Char('+');
      }
      rows = {{alignment_.input_title, alignment_.input},
              {alignment_.expected_title, reference},
              {alignment_.answer_title, answer},
              {QStringLiteral("edits"), edits},
              {QStringLiteral("edit_distance"), QString::number(alignment_view_->distance())}};
      break;
    }
  }
  return PlotExporter::writeCsv(path, {QStringLiteral("field"), QStringLiteral("value")},
                                [&rows](QTextStream& out) {
                                  for (const auto& [field, value] : rows)
                                    out << field << ',' << PlotExporter::csvField(value) << '\n';
                                });
}

}  // namespace ascope
