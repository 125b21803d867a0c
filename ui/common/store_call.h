#pragma once
// The one way Studio calls the tracking store off the UI thread. A call opens its own connection
// on Qt's thread pool (a Store is one connection, used by one thread) and hands its result back on
// the UI thread. With a store that may be a network away, a page must never wait, never show what
// it no longer asked for, and say that it is loading:
// - run() supersedes the call before it (a newer selection, a refresh): the older one is cancelled
//   if it has not started, and its result is dropped if it has; cancel() does the same;
// - busy() is true from run() until the newest call's result is delivered or dropped, and
//   busyChanged() fires on each change, for the page's "Loading…";
// - with Every, each call is delivered (writes: every Stop and every tag must report back).
//
//   m_reader = new StoreCall(this);
//   connect(m_reader, &StoreCall::busyChanged, this, [this](bool busy) { m_loading->setVisible(busy); });
//   m_reader->run<Reading>(m_dbPath, [id](tracking::Store &store) { return readNorms(store, id); },
//                          [this](Reading r) { show(r); }, [this](const QString &e) { showError(e); });

#include "tracking/store.h"

#include <QFutureWatcher>
#include <QObject>
#include <QPromise>
#include <QString>
#include <QtConcurrent/QtConcurrentRun>

#include <functional>
#include <optional>
#include <utility>

namespace tw::ui {

class StoreCall : public QObject {
  Q_OBJECT

 public:
  enum class Delivery { Latest, Every };
  explicit StoreCall(QObject *parent = nullptr, Delivery delivery = Delivery::Latest)
      : QObject(parent), m_delivery(delivery) {}
  ~StoreCall() override {
    if (m_latest) m_latest->cancel();
  }

  // `work(store)` runs on the pool with a store opened at `location`; `done(result)` or
  // `failed(message)` runs here, on the UI thread, unless the call was superseded or cancelled.
  template <typename Result, typename Work, typename Done>
  void run(const QString &location, Work work, Done done, std::function<void(const QString &)> failed = {}) {
    using Outcome = std::pair<std::optional<Result>, QString>;  // the result, or why there is none
    const bool wasBusy = busy();  // superseding a call keeps loading on, without a flicker off
    if (m_delivery == Delivery::Latest && m_latest) m_latest->cancel();
    auto *watcher = new QFutureWatcher<Outcome>(this);
    m_latest = watcher;
    ++m_running;
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, done, failed] {
      watcher->deleteLater();
      const bool wasBusy = busy();
      --m_running;
      const bool current = m_delivery == Delivery::Every || m_latest == watcher;
      if (m_latest == watcher) m_latest = nullptr;
      if (wasBusy != busy()) Q_EMIT busyChanged(busy());
      if (!current || watcher->isCanceled() || watcher->future().resultCount() == 0) return;
      Outcome outcome = watcher->result();
      if (outcome.first) done(std::move(*outcome.first));
      else if (failed) failed(outcome.second);
    });
    // Nothing of this object goes to the pool: a page closed mid-call leaves the call to finish
    // on its own and its result to nobody.
    watcher->setFuture(QtConcurrent::run([path = location.toStdString(), work](QPromise<Outcome> &promise) {
      if (promise.isCanceled()) return;  // superseded before it started: no connection at all
      try {
        auto store = tracking::Store::open(path);
        if (promise.isCanceled()) return;
        promise.addResult(Outcome(work(*store), QString()));
      } catch (const std::exception &e) {
        promise.addResult(Outcome(std::nullopt, QString::fromUtf8(e.what())));
      }
    }));
    if (wasBusy != busy()) Q_EMIT busyChanged(busy());
  }

  // Drops the newest call's result, and cancels it when it has not started.
  void cancel() {
    if (!m_latest) return;
    const bool wasBusy = busy();
    m_latest->cancel();
    m_latest = nullptr;
    if (wasBusy != busy()) Q_EMIT busyChanged(busy());
  }

  // Latest: the newest call has not delivered yet. Every: some call has not.
  bool busy() const { return m_delivery == Delivery::Latest ? m_latest != nullptr : m_running > 0; }

 Q_SIGNALS:
  void busyChanged(bool busy);

 private:
  Delivery m_delivery;
  int m_running = 0;
  QFutureWatcherBase *m_latest = nullptr;
};

}  // namespace tw::ui
