// The Kubernetes Job the sweep driver writes for a trial (app/cli/kubernetes_trial.cpp, compiled
// in: the CLI is an executable, not a library): what it asks for, checked field by field, and the
// whole manifest validated against the Kubernetes schemas (npm kubernetes-models, no cluster
// needed), which a broken manifest fails. The CLI refuses the executor without kubectl.

#include "app/cli/kubernetes_trial.h"
#include "cli_runner.h"

#include <yaml-cpp/yaml.h>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using tw::cli::ClusterTrialSpec;

namespace {

// YAML as JSON, keeping the types Kubernetes reads: a quoted scalar stays a string ("4" cpus),
// a plain one becomes a number or a boolean where it reads as one.
QJsonValue toJson(const YAML::Node &node) {
  if (node.IsMap()) {
    QJsonObject object;
    for (auto it = node.begin(); it != node.end(); ++it)
      object.insert(QString::fromStdString(it->first.Scalar()), toJson(it->second));
    return object;
  }
  if (node.IsSequence()) {
    QJsonArray array;
    for (const auto &item : node) array.append(toJson(item));
    return array;
  }
  const QString text = QString::fromStdString(node.Scalar());
  if (node.Tag() == "!") return text;
  bool isInt = false;
  const qlonglong n = text.toLongLong(&isInt);
  if (isInt) return n;
  if (text == "true" || text == "false") return text == "true";
  return text;
}

ClusterTrialSpec gpuTrial() {
  ClusterTrialSpec spec;
  spec.studyFolder = "/shared/ws/studies/0123456789abcdef";
  spec.studyName = "LR_search";
  spec.studyUuid = "0123456789abcdef0123456789abcdef";
  spec.number = 7;
  spec.executable = "torchwright";
  spec.workspace = "/shared/ws";
  spec.runUuid = "fedcba9876543210fedcba9876543210";
  spec.executor.type = "kubernetes";
  spec.executor.image = "registry.example.org/torchwright:0.9";
  spec.executor.kubeNamespace = "ml";
  spec.executor.workspaceClaim = "tw-workspace";
  spec.executor.storeSecret = "tw-store";
  spec.executor.cpus = 4;
  spec.executor.gpus = 1;
  spec.executor.memory = "16G";
  spec.executor.time = "02:00:00";
  return spec;
}

}  // namespace

class TestKubernetesJob : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir m_dir;

  // "valid" or the schema's complaints; the validator's exit code in `code`.
  QString validate(const QJsonObject &manifest, int *code) {
    const QString file = m_dir.path() + "/job.json";
    QFile out(file);
    if (!out.open(QIODevice::WriteOnly)) return "cannot write " + file;
    out.write(QJsonDocument(manifest).toJson());
    out.close();
    QProcess node;
    node.setProcessChannelMode(QProcess::MergedChannels);
    node.start("node", {TW_SOURCE_DIR "/tests/cli/scripts/validate_k8s_job.mjs", file, TW_NPM_DIR});
    if (!node.waitForFinished(60000)) return "node did not finish";
    *code = node.exitCode();
    return QString::fromUtf8(node.readAll()).trimmed();
  }

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(m_dir.isValid());
    if (!QFile::exists(TW_NPM_DIR "/node_modules/kubernetes-models/package.json"))
      QFAIL("kubernetes-models is not installed in " TW_NPM_DIR ": run packaging/install-test-tools.sh");
  }

  void aTrialsJobAsksForItsRequest() {
    const ClusterTrialSpec spec = gpuTrial();
    const YAML::Node job = YAML::Load(tw::cli::kubernetesJobYaml(spec));
    QCOMPARE(job["apiVersion"].as<std::string>(), std::string("batch/v1"));
    QCOMPARE(job["kind"].as<std::string>(), std::string("Job"));
    QCOMPARE(job["metadata"]["name"].as<std::string>(), std::string("tw-lr-search-01234567-7"));
    QCOMPARE(job["metadata"]["namespace"].as<std::string>(), std::string("ml"));
    QCOMPARE(job["metadata"]["labels"]["torchwright.io/trial"].as<std::string>(), std::string("7"));
    QCOMPARE(job["metadata"]["annotations"]["torchwright.io/run"].as<std::string>(), spec.runUuid);
    QCOMPARE(job["spec"]["activeDeadlineSeconds"].as<int>(), 7200);
    QCOMPARE(job["spec"]["backoffLimit"].as<int>(), 3);
    QCOMPARE(job["spec"]["template"]["spec"]["terminationGracePeriodSeconds"].as<int>(), 120);
    QCOMPARE(job["spec"]["podFailurePolicy"]["rules"][0]["onPodConditions"][0]["type"].as<std::string>(),
             std::string("DisruptionTarget"));
    const YAML::Node pod = job["spec"]["template"]["spec"];
    QCOMPARE(pod["restartPolicy"].as<std::string>(), std::string("Never"));
    const YAML::Node c = pod["containers"][0];
    QCOMPARE(c["image"].as<std::string>(), spec.executor.image);
    QCOMPARE(c["command"].as<std::vector<std::string>>(),
             (std::vector<std::string>{"torchwright", "launch", "--resume", spec.runUuid, "--force", "--workspace", "/shared/ws"}));
    for (const char *side : {"requests", "limits"}) {
      QCOMPARE(c["resources"][side]["cpu"].as<std::string>(), std::string("4"));
      QCOMPARE(c["resources"][side]["memory"].as<std::string>(), std::string("16Gi"));
      QCOMPARE(c["resources"][side]["nvidia.com/gpu"].as<std::string>(), std::string("1"));
    }
    // The store's URL (a password, maybe) comes from the Secret, never from the manifest.
    QCOMPARE(c["env"][0]["name"].as<std::string>(), std::string("TW_STORE"));
    QCOMPARE(c["env"][0]["valueFrom"]["secretKeyRef"]["name"].as<std::string>(), std::string("tw-store"));
    // The workspace at its own path: the runs the store records name it.
    QCOMPARE(c["volumeMounts"][0]["mountPath"].as<std::string>(), std::string("/shared/ws"));
    QCOMPARE(pod["volumes"][0]["persistentVolumeClaim"]["claimName"].as<std::string>(), std::string("tw-workspace"));
  }

  void theManifestPassesKubernetesSchema() {
    for (const bool minimal : {false, true}) {
      ClusterTrialSpec spec = gpuTrial();
      if (minimal) {  // no namespace, secret, GPU, memory or time limit
        spec.executor.kubeNamespace.clear();
        spec.executor.storeSecret.clear();
        spec.executor.gpus = 0;
        spec.executor.memory.clear();
        spec.executor.time.clear();
      }
      int code = -1;
      const QString verdict = validate(toJson(YAML::Load(tw::cli::kubernetesJobYaml(spec))).toObject(), &code);
      QVERIFY2(code == 0 && verdict == "valid", qPrintable(verdict));
    }
  }

  // The validation can fail: a quantity Kubernetes cannot read, and a container without its image.
  void aBrokenManifestFailsTheSchema() {
    QJsonObject job = toJson(YAML::Load(tw::cli::kubernetesJobYaml(gpuTrial()))).toObject();
    QJsonObject spec = job["spec"].toObject(), tmpl = spec["template"].toObject(), pod = tmpl["spec"].toObject();
    QJsonObject container = pod["containers"].toArray()[0].toObject();
    QJsonObject resources = container["resources"].toObject(), limits = resources["limits"].toObject();
    limits["memory"] = "16 gigabytes";
    resources["limits"] = limits;
    container["resources"] = resources;
    pod["containers"] = QJsonArray{container};
    tmpl["spec"] = pod;
    spec["template"] = tmpl;
    job["spec"] = spec;
    int code = -1;
    QString verdict = validate(job, &code);
    QVERIFY2(code == 1 && verdict.contains("limits/memory"), qPrintable(verdict));

    container.remove("image");
    container.remove("name");
    pod["containers"] = QJsonArray{container};
    tmpl["spec"] = pod;
    spec["template"] = tmpl;
    job["spec"] = spec;
    verdict = validate(job, &code);
    QVERIFY2(code == 1 && verdict.contains("name"), qPrintable(verdict));
  }

  void namesAndUnitsAreKubernetes_data() {
    QTest::addColumn<QString>("memory");
    QTest::addColumn<QString>("quantity");
    QTest::newRow("gigabytes") << "16G" << "16Gi";
    QTest::newRow("megabytes") << "500M" << "500Mi";
    QTest::newRow("plain megabytes") << "4000" << "4000Mi";
    QTest::newRow("terabytes, lower case") << "1t" << "1Ti";
  }
  void namesAndUnitsAreKubernetes() {
    QFETCH(QString, memory);
    QFETCH(QString, quantity);
    QCOMPARE(QString::fromStdString(tw::cli::kubernetesQuantity(memory.toStdString())), quantity);
  }

  void timeLimitsInSeconds() {
    QCOMPARE(tw::cli::timeLimitSeconds("30"), std::optional<long long>(1800));
    QCOMPARE(tw::cli::timeLimitSeconds("30:15"), std::optional<long long>(1815));
    QCOMPARE(tw::cli::timeLimitSeconds("02:00:00"), std::optional<long long>(7200));
    QCOMPARE(tw::cli::timeLimitSeconds("1-12"), std::optional<long long>(129600));
    QCOMPARE(tw::cli::timeLimitSeconds("2-00:30:00"), std::optional<long long>(174600));
    QVERIFY(!tw::cli::timeLimitSeconds("UNLIMITED"));
    QVERIFY(!tw::cli::timeLimitSeconds(""));
  }

  // However long the study's name, the Job's name is a DNS-1123 label the schema takes.
  void aLongStudyNameStillMakesAName() {
    ClusterTrialSpec spec = gpuTrial();
    spec.studyName = std::string(80, 'x') + "_Search";
    spec.number = 123456;
    const std::string name = tw::cli::kubernetesJobName(spec);
    QVERIFY2(name.size() <= 63, name.c_str());
    QVERIFY(QRegularExpression("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$").match(QString::fromStdString(name)).hasMatch());
    QVERIFY(QString::fromStdString(name).endsWith("-01234567-123456"));
    int code = -1;
    const QString verdict = validate(toJson(YAML::Load(tw::cli::kubernetesJobYaml(spec))).toObject(), &code);
    QVERIFY2(code == 0, qPrintable(verdict));
  }

  // Without kubectl the executor is refused before the study is recorded.
  void missingKubectlIsRefused() {
    const QString dir = m_dir.path();
    QFile model(dir + "/k.model.yaml"), run(dir + "/k.run.yaml"), sweep(dir + "/k.sweep.yaml");
    QVERIFY(model.open(QIODevice::WriteOnly) && run.open(QIODevice::WriteOnly) && sweep.open(QIODevice::WriteOnly));
    model.write("name: tiny\nnodes:\n  - {id: image, op: Input, shape: [1, 28, 28]}\n  - {id: flat, op: Flatten}\n"
                "  - {id: logits, op: Linear, out_features: 10}\noutput: logits\n");
    run.write("model: k.model.yaml\ndata: {dataset: fashion-mnist, train_limit: 400, test_limit: 50, batch_size: 50}\ntrain: {epochs: 1}\n");
    sweep.write("base: k.run.yaml\nspace: {train.lr: [0.1, 0.01]}\nsampler: random\nbudget: {trials: 2}\n"
                "executor: {type: kubernetes, image: tw:1, workspace_claim: ws}\n");
    model.close(), run.close(), sweep.close();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("PATH", dir + "/no-such-bin");
    env.remove("TW_STORE");
    const auto r = runCli({"sweep", dir + "/k.sweep.yaml", "--workspace", dir + "/ws"}, 60000, env);
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("k.sweep.yaml: executor: 'kubectl' is not on PATH") && r.err.contains("No job was submitted"),
             qPrintable(r.err));
    QVERIFY(!QFile::exists(dir + "/ws/tracking.db"));
  }
};

QTEST_GUILESS_MAIN(TestKubernetesJob)
#include "test_kubernetes_job.moc"
