#include "app/gui/engine_session.h"

#include "app/gui/event_translation.h"
#include "engine/train/trainer.h"

namespace ascope {

EngineSession::EngineSession(std::unique_ptr<Trainer> trainer, std::shared_ptr<EventQueue> queue,
                             TrainingConfig config)
    : trainer_(std::move(trainer)), queue_(std::move(queue)), config_(std::move(config)) {}

EngineSession::~EngineSession() = default;  // ~Trainer requests stop and joins

Expected<std::unique_ptr<EngineSession>> EngineSession::startTraining(const TrainingConfig& config,
                                                                      bool start_paused) {
  auto trainer = std::make_unique<Trainer>(config);
  if (Status s = trainer->start(start_paused); !s.ok()) return Error{s.error()};
  std::shared_ptr<EventQueue> queue = trainer->events();
  return std::unique_ptr<EngineSession>(
      new EngineSession(std::move(trainer), std::move(queue), config));
}

std::unique_ptr<EngineSession> EngineSession::replay(std::shared_ptr<EventQueue> queue) {
  return std::unique_ptr<EngineSession>(new EngineSession(nullptr, std::move(queue), {}));
}

void EngineSession::pause() {
  if (trainer_) trainer_->pause();
}
void EngineSession::resume() {
  if (trainer_) trainer_->resume();
}
void EngineSession::stepOnce() {
  if (trainer_) trainer_->stepOnce();
}
void EngineSession::stop() {
  if (trainer_) trainer_->stop();
}
void EngineSession::setLearningRate(double lr) {
  if (trainer_) trainer_->setLearningRate(lr);
}

GuiBatch EngineSession::drain() {
  return translateEvents(queue_->drain());
}

bool EngineSession::finished() const {
  return trainer_ && trainer_->finished();
}

RunState EngineSession::state() const {
  return trainer_ ? toRunState(trainer_->state()) : RunState::Idle;
}

std::string EngineSession::runDir() const {
  return trainer_ ? trainer_->runDir() : std::string();
}

}  // namespace ascope
