#include "app/gui/window/lesson/lesson_player.h"

#include <QFileInfo>
#include <QLineEdit>

#include "app/gui/bridge/current_run.h"
#include "app/gui/views/attention/attention_presenter.h"
#include "app/gui/views/sample/sample_presenter.h"
#include "app/gui/views/sample/try_it_box.h"
#include "app/gui/window/run/run_controller.h"
#include "widgets/attention/attention_head_grid_panel.h"
#include "widgets/attention/minimal_pair_view.h"
#include "widgets/attention/prediction_round.h"

namespace ascope {

namespace {

bool sameFolder(const QString& a, const QString& b) {
  const QString canonical_a = QFileInfo(a).canonicalFilePath();
  return !canonical_a.isEmpty() && canonical_a == QFileInfo(b).canonicalFilePath();
}

}  // namespace

LessonPlayer::LessonPlayer(Parts parts, QObject* parent) : QObject(parent), parts_(parts) {
  poll_.setInterval(20);
  connect(&poll_, &QTimer::timeout, this, [this] {
    if (parts_.attention->timeline()->isBusy() || parts_.controller->isOpening()) return;
    poll_.stop();
    if (auto then = std::exchange(after_load_, {})) then();
  });
}

QString LessonPlayer::dockTitle(const std::string& view) {
  if (view == "heads") return tr("Heads");
  if (view == "decoding") return tr("Decoding");
  if (view == "encoding") return tr("Positional encoding");
  if (view == "curves") return tr("Loss");
  if (view == "sample") return tr("Sample");
  return tr("Attention");
}

void LessonPlayer::setLesson(const QString& path, Lesson lesson, int skipped) {
  close();
  path_ = path;
  lesson_ = std::move(lesson);
  skipped_ = skipped;
  loaded_ = true;
  Q_EMIT lessonChanged();
}

void LessonPlayer::cancelPending() {
  ++generation_;
  for (const QMetaObject::Connection& c : waiting_) disconnect(c);
  waiting_.clear();
  poll_.stop();
  after_load_ = {};
  busy_ = false;
}

const LessonMoment* LessonPlayer::pendingMoment() {
  if (current_ >= 0 && current_ < static_cast<int>(lesson_.moments.size())) {
    return &lesson_.moments[static_cast<size_t>(current_)];
  }
  finish(tr("the lesson changed while the moment was loading"));
  return nullptr;
}

void LessonPlayer::close() {
  cancelPending();
  ++serial_;
  loaded_ = false;
  skipped_ = 0;
  path_.clear();
  lesson_ = Lesson();
  current_ = -1;
  Q_EMIT lessonChanged();
}

void LessonPlayer::play(int index) {
  if (!loaded_ || index < 0 || index >= static_cast<int>(lesson_.moments.size())) return;
  cancelPending();
  current_ = index;
  busy_ = true;
  // A round of the moment before must not carry over to this one's head.
  parts_.attention->panel()->predictionRound()->end();
  if (parts_.controller->isOpening()) {
    // A run still opening (a key pressed twice quickly) would refuse a second open.
    whenLoaded([this, index] { play(index); });
    return;
  }
  const QString run = QString::fromStdString(lesson_.moments[static_cast<size_t>(index)].run);
  if (sameFolder(run, parts_.run->folder())) return showInput();
  const int generation = generation_;
  waiting_ << connect(parts_.controller, &RunController::runOpened, this, [this, generation] {
    if (generation == generation_) showInput();
  });
  waiting_ << connect(parts_.controller, &RunController::openFailed, this,
                      [this, generation](const QString& message) {
                        if (generation == generation_) finish(message);
                      });
  parts_.controller->openRun(run);
}

void LessonPlayer::showInput() {
  for (const QMetaObject::Connection& c : waiting_) disconnect(c);
  waiting_.clear();
  const LessonMoment* pending = pendingMoment();
  if (!pending) return;
  const LessonMoment& moment = *pending;
  AttentionPresenter* attention = parts_.attention;
  if (moment.text.empty()) {
    if (attention->isShowingAsked()) attention->returnToRun();
    // The moment names its sample by its validation index; the chooser lists the probe set's.
    const int position = attention->timeline()->probeSampleIndices().indexOf(moment.sample);
    attention->setProbeIndex(std::max(0, position));
    whenLoaded([this, step = moment.step] {
      if (step >= 0) {
        parts_.attention->showStep(step);
      } else {
        parts_.attention->showLast();
      }
      whenLoaded([this] { showHead(); });
    });
    return;
  }
  TryItBox* try_it = parts_.sample->tryIt();
  if (try_it->isBusy()) {
    // Its answer to an earlier question would be taken for this moment's: wait for it first.
    QTimer::singleShot(50, this, [this, generation = generation_] {
      if (generation == generation_) showInput();
    });
    return;
  }
  const int generation = generation_;
  waiting_ << connect(attention, &AttentionPresenter::askedShown, this,
                      [this, generation](bool shown) {
                        if (generation == generation_ && shown) whenLoaded([this] { showHead(); });
                      });
  waiting_ << connect(try_it, &TryItBox::answered, this,
                      [this, generation](const QString& text, bool ok) {
                        if (generation == generation_ && !ok) finish(text);
                      });
  // A minimal pair is asked as Try it takes one: "A | B".
  const QString asked = moment.pair_text.empty() ? QString::fromStdString(moment.text)
                                                 : QStringLiteral("%1 | %2").arg(
                                                       QString::fromStdString(moment.text),
                                                       QString::fromStdString(moment.pair_text));
  try_it->input()->setText(asked);
  try_it->askText(asked);
}

void LessonPlayer::showHead() {
  for (const QMetaObject::Connection& c : waiting_) disconnect(c);
  waiting_.clear();
  const LessonMoment* pending = pendingMoment();
  if (!pending) return;
  const LessonMoment& moment = *pending;
  AttentionHeadGridPanel* panel = parts_.attention->panel();
  if (!moment.group.empty()) {
    const int group = panel->groupWithId(QString::fromStdString(moment.group));
    if (group >= 0) panel->setCurrentGroup(group);
  }
  panel->setCurrentLayer(moment.layer);
  panel->setCurrentHead(moment.head);
  if (parts_.attention->isShowingPair()) {
    MinimalPairView* pair = parts_.attention->pairView();
    int group = 0;
    for (int g = 0; g < static_cast<int>(pair->pair().a.groups.size()); ++g)
      if (pair->pair().a.groups[static_cast<size_t>(g)].id == QString::fromStdString(moment.group))
        group = g;
    pair->showHead(group, moment.layer, moment.head);
  }
  parts_.raise_dock(dockTitle(moment.view));
  // A pair's two maps and their difference are the answer: it is not hidden behind them.
  if (moment.hidden && !parts_.attention->isShowingPair() &&
      (moment.view == "attention" || moment.view == "heads")) {
    parts_.raise_dock(dockTitle("attention"));
    panel->predictionRound()->start(moment.query);
  }
  finish({});
}

void LessonPlayer::askFirstOrReveal() {
  PredictionRound* round = parts_.attention->panel()->predictionRound();
  if (round->isActive() && !round->isRevealed()) {
    round->reveal();
    return;
  }
  parts_.raise_dock(dockTitle("attention"));
  round->start(-1);
}

void LessonPlayer::finish(const QString& problem) {
  busy_ = false;
  Q_EMIT momentShown(current_, problem);
}

void LessonPlayer::whenLoaded(std::function<void()> then) {
  after_load_ = std::move(then);
  poll_.start();
}

LessonMoment LessonPlayer::momentFromWindow() const {
  LessonMoment moment;
  moment.run = parts_.run->folder().toStdString();
  const AttentionPresenter* attention = parts_.attention;
  const AttentionHeadGridPanel* panel = attention->panel();
  if (attention->isShowingAsked()) {
    const QString asked = parts_.sample->tryIt()->input()->text();
    moment.text = asked.toStdString();
    if (attention->isShowingPair()) {
      const MinimalPairView* pair = attention->pairView();
      moment.text = pair->pair().input_a.toStdString();
      moment.pair_text = pair->pair().input_b.toStdString();
      const int group = pair->currentGroup();
      if (group >= 0 && group < static_cast<int>(pair->pair().a.groups.size())) {
        moment.group = pair->pair().a.groups[static_cast<size_t>(group)].id.toStdString();
      }
      moment.layer = pair->currentLayer();
      moment.head = pair->currentHead();
      return moment;
    }
  } else {
    moment.step = attention->shownStep();
    moment.sample = attention->timeline()->probeSampleIndices().value(attention->probeIndex(),
                                                                      attention->probeIndex());
  }
  moment.group = panel->currentGroupId().toStdString();
  moment.layer = panel->currentLayer();
  moment.head = panel->currentHead();
  const PredictionRound* round = panel->predictionRound();
  moment.hidden = round->isActive();
  moment.query = round->isActive() ? round->query() : -1;
  return moment;
}

void LessonPlayer::addMoment(LessonMoment moment) {
  cancelPending();
  loaded_ = true;
  const auto at = lesson_.moments.begin() + std::max(0, current_ + 1);
  lesson_.moments.insert(at, std::move(moment));
  current_ = std::max(0, current_ + 1);
  Q_EMIT lessonChanged();
  Q_EMIT momentShown(current_, {});
}

void LessonPlayer::appendMoment(LessonMoment moment) {
  loaded_ = true;
  lesson_.moments.push_back(std::move(moment));
  Q_EMIT lessonChanged();
}

void LessonPlayer::removeCurrent() {
  if (current_ < 0 || current_ >= static_cast<int>(lesson_.moments.size())) return;
  cancelPending();
  lesson_.moments.erase(lesson_.moments.begin() + current_);
  // The one before is current again, so Next shows the one that followed the removed moment.
  current_ = std::min(current_ - 1, static_cast<int>(lesson_.moments.size()) - 1);
  Q_EMIT lessonChanged();
}

}  // namespace ascope
