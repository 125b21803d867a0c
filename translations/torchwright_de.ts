<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>ModelTemplates</name>
    <message>
        <source>MLP (784-256-128-10)</source>
        <translation>MLP (784-256-128-10)</translation>
    </message>
    <message>
        <source>LeNet-style CNN</source>
        <translation>CNN im LeNet-Stil</translation>
    </message>
    <message>
        <source>Small ResNet (2 residual blocks)</source>
        <translation>Kleines ResNet (2 Residualblöcke)</translation>
    </message>
    <message>
        <source>Transformer encoder for sequences (image rows)</source>
        <translation>Transformer-Encoder für Sequenzen (Bildzeilen)</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <source>Folder</source>
        <translation>Ordner</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>Connect %1 to %2</source>
        <translation>%1 mit %2 verbinden</translation>
    </message>
    <message>
        <source>Disconnect %1 from %2</source>
        <translation>Verbindung von %1 zu %2 trennen</translation>
    </message>
    <message>
        <source>Delete %1</source>
        <translation>%1 löschen</translation>
    </message>
    <message>
        <source>Rename %1 to %2</source>
        <translation>%1 in %2 umbenennen</translation>
    </message>
    <message>
        <source>Set %1.%2</source>
        <translation>%1.%2 setzen</translation>
    </message>
    <message>
        <source>Reset %1.%2</source>
        <translation>%1.%2 zurücksetzen</translation>
    </message>
    <message>
        <source>Delete %1 nodes</source>
        <translation>%1 Knoten löschen</translation>
    </message>
    <message>
        <source>Block %1</source>
        <translation>Block %1</translation>
    </message>
    <message>
        <source>Connect %1 to %2 instead of %3</source>
        <translation>%1 mit %2 statt mit %3 verbinden</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Torchwright Studio: design, train and compare deep-learning models.</source>
        <translation>Torchwright Studio: Deep-Learning-Modelle entwerfen, trainieren und vergleichen.</translation>
    </message>
    <message>
        <source>Workspace folder (default: %1).</source>
        <translation>Arbeitsbereich-Ordner (Standard: %1).</translation>
    </message>
    <message>
        <source>DIR</source>
        <translation>ORDNER</translation>
    </message>
    <message>
        <source>User interface language: de or en (default: the system language).</source>
        <translation>Sprache der Oberfläche: de oder en (Standard: die Systemsprache).</translation>
    </message>
    <message>
        <source>LANG</source>
        <translation>SPRACHE</translation>
    </message>
    <message>
        <source>Print how long the window and the runs list took to appear (one JSON line), then quit.</source>
        <translation>Ausgeben, wie lange Fenster und Runliste bis zum Erscheinen brauchten (eine JSON-Zeile), dann beenden.</translation>
    </message>
</context>
<context>
    <name>tw::ui</name>
    <message>
        <source>%1 (not installed)</source>
        <translation>%1 (nicht installiert)</translation>
    </message>
    <message>
        <source>%1 is not installed here: %2</source>
        <translation>%1 ist hier nicht installiert: %2</translation>
    </message>
    <message>
        <source>from checkpoint %1</source>
        <translation>aus Checkpoint %1</translation>
    </message>
    <message>
        <source>ONNX opset %1</source>
        <translation>ONNX-Opset %1</translation>
    </message>
    <message>
        <source>int8 weights and activations</source>
        <translation>int8-Gewichte und -Aktivierungen</translation>
    </message>
    <message>
        <source>standardisation inside the model</source>
        <translation>Standardisierung im Modell</translation>
    </message>
    <message>
        <source>%1, version %2 (%3)</source>
        <translation>%1, Version %2 (%3)</translation>
    </message>
    <message>
        <source>File</source>
        <translation>Datei</translation>
    </message>
    <message>
        <source>%1 (%2, %3)</source>
        <translation>%1 (%2, %3)</translation>
    </message>
    <message>
        <source>SHA-256</source>
        <translation>SHA-256</translation>
    </message>
    <message>
        <source>not recorded</source>
        <translation>nicht aufgezeichnet</translation>
    </message>
    <message>
        <source>%1 (%2) in experiment %3</source>
        <translation>%1 (%2) im Experiment %3</translation>
    </message>
    <message>
        <source>(deleted since)</source>
        <translation>(inzwischen gelöscht)</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>Daten</translation>
    </message>
    <message>
        <source>Data fingerprint</source>
        <translation>Daten-Fingerabdruck</translation>
    </message>
    <message>
        <source>Configuration hash</source>
        <translation>Konfigurations-Hash</translation>
    </message>
    <message>
        <source>Metrics</source>
        <translation>Metriken</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Export</translation>
    </message>
</context>
<context>
    <name>tw::ui::ArtifactsPanel</name>
    <message>
        <source>Open Folder</source>
        <translation>Ordner öffnen</translation>
    </message>
    <message>
        <source>Copy Path</source>
        <translation>Pfad kopieren</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>File</source>
        <translation>Datei</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>SHA-256</source>
        <translation>SHA-256</translation>
    </message>
    <message>
        <source>Open the folder of the selected file (else the run&apos;s folder) in the file manager</source>
        <translation>Den Ordner der gewählten Datei (sonst den Ordner des Laufs) im Dateimanager öffnen</translation>
    </message>
    <message>
        <source>Copy the selected file&apos;s full path</source>
        <translation>Den vollständigen Pfad der gewählten Datei kopieren</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>fehlt</translation>
    </message>
    <message>
        <source>Cannot read the artifacts: %1</source>
        <translation>Die Artefakte können nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Copy SHA-256</source>
        <translation>SHA-256 kopieren</translation>
    </message>
    <message>
        <source>Copy the selected file&apos;s full SHA-256 digest</source>
        <translation>Den vollständigen SHA-256 der gewählten Datei kopieren</translation>
    </message>
    <message>
        <source>SHA-256 %1
of the file as it is now (none was recorded when it was written)</source>
        <translation>SHA-256 %1
der Datei, wie sie jetzt ist (beim Schreiben wurde keiner aufgezeichnet)</translation>
    </message>
    <message>
        <source>SHA-256 %1
recorded when the file was written</source>
        <translation>SHA-256 %1
aufgezeichnet, als die Datei geschrieben wurde</translation>
    </message>
    <message>
        <source>The file is gone: no digest to compute</source>
        <translation>Die Datei ist fort: kein Hash zu berechnen</translation>
    </message>
    <message>
        <source>computing…</source>
        <translation>wird berechnet …</translation>
    </message>
    <message>
        <source>No digest was recorded for this file; it is being computed from the file</source>
        <translation>Für diese Datei wurde kein Hash aufgezeichnet; er wird aus der Datei berechnet</translation>
    </message>
    <message>
        <source>1 artifact</source>
        <translation>1 Artefakt</translation>
    </message>
    <message>
        <source>%1 artifacts</source>
        <translation>%1 Artefakte</translation>
    </message>
    <message>
        <source>Reading the artifacts…</source>
        <translation>Die Artefakte werden gelesen…</translation>
    </message>
</context>
<context>
    <name>tw::ui::BandChart</name>
    <message>
        <source>Step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>%1 · step %2: mean %3, min %4, max %5 (runs with this step: %6)</source>
        <translation>%1 · Schritt %2: Mittel %3, Min. %4, Max. %5 (Runs mit diesem Schritt: %6)</translation>
    </message>
</context>
<context>
    <name>tw::ui::BaseRunBox</name>
    <message>
        <source>Each trial trains</source>
        <translation>Jeder Versuch trainiert</translation>
    </message>
    <message>
        <source>Change on Launch Page</source>
        <translation>Auf „Starten“ ändern</translation>
    </message>
    <message>
        <source>The sweep starts from the Launch page&apos;s run: its model, data and every setting the search space does not change</source>
        <translation>Der Suchlauf geht vom Lauf der Seite „Starten“ aus: von ihrem Modell, ihren Daten und jeder Einstellung, die der Suchraum nicht ändert</translation>
    </message>
    <message>
        <source>%1 from %2</source>
        <translation>%1 aus %2</translation>
    </message>
    <message>
        <source>none yet (choose a model file on the Launch page)</source>
        <translation>noch keines (wählen Sie auf der Seite „Starten“ eine Modelldatei)</translation>
    </message>
    <message>
        <source>the file %1</source>
        <translation>die Datei %1</translation>
    </message>
    <message>
        <source>the Design page&apos;s design</source>
        <translation>der Entwurf der Seite „Entwurf“</translation>
    </message>
    <message>
        <source>“%1”, the Design page&apos;s design</source>
        <translation>„%1“, der Entwurf der Seite „Entwurf“</translation>
    </message>
    <message>
        <source>Model: %1. Data: %2. Every other setting is the Launch page&apos;s, except the keys searched below.</source>
        <translation>Modell: %1. Daten: %2. Jede andere Einstellung ist die der Seite „Starten“, außer den unten gesuchten Schlüsseln.</translation>
    </message>
</context>
<context>
    <name>tw::ui::BlockLibrary</name>
    <message>
        <source>&apos;%1&apos; is not a block name: use letters, digits, &apos;_&apos; and &apos;-&apos;, starting with a letter.</source>
        <translation>„%1“ ist kein Blockname: Buchstaben, Ziffern, „_“ und „-“ verwenden, beginnend mit einem Buchstaben.</translation>
    </message>
    <message>
        <source>Cannot create the folder %1.</source>
        <translation>Der Ordner %1 kann nicht angelegt werden.</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Cannot write the block %1: %2 %3.</source>
        <translation>Der Block %1 kann nicht geschrieben werden: %2 %3.</translation>
    </message>
</context>
<context>
    <name>tw::ui::ChartExport</name>
    <message>
        <source>Export as PNG...</source>
        <translation>Als PNG exportieren …</translation>
    </message>
    <message>
        <source>Export as SVG...</source>
        <translation>Als SVG exportieren …</translation>
    </message>
    <message>
        <source>Export data as CSV...</source>
        <translation>Daten als CSV exportieren …</translation>
    </message>
    <message>
        <source>the image could not be written</source>
        <translation>das Bild konnte nicht geschrieben werden</translation>
    </message>
    <message>
        <source>the folder %1 is not writable</source>
        <translation>der Ordner %1 ist nicht beschreibbar</translation>
    </message>
    <message>
        <source>Exported from Torchwright Studio</source>
        <translation>Aus Torchwright Studio exportiert</translation>
    </message>
    <message>
        <source>the file could not be opened</source>
        <translation>die Datei konnte nicht geöffnet werden</translation>
    </message>
    <message>
        <source>nothing was written</source>
        <translation>es wurde nichts geschrieben</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG-Bilder (*.png)</translation>
    </message>
    <message>
        <source>SVG drawings (*.svg)</source>
        <translation>SVG-Zeichnungen (*.svg)</translation>
    </message>
    <message>
        <source>CSV tables (*.csv)</source>
        <translation>CSV-Tabellen (*.csv)</translation>
    </message>
    <message>
        <source>Export Chart</source>
        <translation>Diagramm exportieren</translation>
    </message>
    <message>
        <source>Export Failed</source>
        <translation>Export fehlgeschlagen</translation>
    </message>
    <message>
        <source>Could not write %1: %2. Choose another folder or file name and export again.</source>
        <translation>%1 konnte nicht geschrieben werden: %2. Wählen Sie einen anderen Ordner oder Dateinamen und exportieren Sie erneut.</translation>
    </message>
</context>
<context>
    <name>tw::ui::CliCommand</name>
    <message>
        <source>Cannot start %1: %2</source>
        <translation>%1 kann nicht gestartet werden: %2</translation>
    </message>
</context>
<context>
    <name>tw::ui::ComparePage</name>
    <message>
        <source>Metric</source>
        <translation>Metrik</translation>
    </message>
    <message>
        <source>Loading %1 runs…</source>
        <translation>%1 Läufe werden geladen …</translation>
    </message>
    <message>
        <source>%1 runs, %2 of %3 parameters differ</source>
        <translation>%1 Läufe, %2 von %3 Parametern unterscheiden sich</translation>
    </message>
    <message>
        <source>Curves</source>
        <translation>Kurven</translation>
    </message>
    <message>
        <source>Parallel coordinates</source>
        <translation>Parallele Koordinaten</translation>
    </message>
    <message>
        <source>Scatter</source>
        <translation>Streudiagramm</translation>
    </message>
    <message>
        <source>Config</source>
        <translation>Konfiguration</translation>
    </message>
    <message>
        <source>Cannot read the runs: %1. Check that the workspace&apos;s tracking.db is readable.</source>
        <translation>Die Runs können nicht gelesen werden: %1. Prüfen Sie, ob die tracking.db des Arbeitsbereichs lesbar ist.</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>the runs&apos; monitored metric</source>
        <translation>die überwachte Metrik der Läufe</translation>
    </message>
    <message>
        <source>The metric every tab shows. Until you choose one, the metric the runs monitored (train.monitor), else val/loss</source>
        <translation>Die Metrik, die jeder Reiter zeigt. Bis Sie eine wählen, die von den Läufen überwachte Metrik (train.monitor), sonst val/loss</translation>
    </message>
</context>
<context>
    <name>tw::ui::Comparison</name>
    <message>
        <source>Final value</source>
        <translation>Letzter Wert</translation>
    </message>
    <message>
        <source>Minimum</source>
        <translation>Minimum</translation>
    </message>
    <message>
        <source>Maximum</source>
        <translation>Maximum</translation>
    </message>
    <message>
        <source>Which value of each run&apos;s metric to place it at: its last, lowest or highest, or its best (lowest for losses and errors, highest otherwise)</source>
        <translation>Welcher Wert der Metrik jedes Runs zählt: der letzte, der kleinste oder der größte, oder der beste (der kleinste bei Verlusten und Fehlern, sonst der größte)</translation>
    </message>
    <message>
        <source>%1 (final)</source>
        <translation>%1 (letzter)</translation>
    </message>
    <message>
        <source>%1 (min)</source>
        <translation>%1 (Min.)</translation>
    </message>
    <message>
        <source>%1 (max)</source>
        <translation>%1 (Max.)</translation>
    </message>
    <message>
        <source>%1 (best)</source>
        <translation>%1 (bester)</translation>
    </message>
    <message>
        <source>Best</source>
        <translation>Bester Wert</translation>
    </message>
</context>
<context>
    <name>tw::ui::ConfigDiffView</name>
    <message>
        <source>Only differences</source>
        <translation>Nur Unterschiede</translation>
    </message>
    <message>
        <source>Parameter</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <source>These runs recorded no parameters.</source>
        <translation>Diese Läufe haben keine Parameter aufgezeichnet.</translation>
    </message>
    <message>
        <source>The runs share every parameter. Clear &quot;Only differences&quot; to see them all.</source>
        <translation>Die Läufe teilen alle Parameter. Heben Sie „Nur Unterschiede“ auf, um alle zu sehen.</translation>
    </message>
</context>
<context>
    <name>tw::ui::ConfigFieldWidget</name>
    <message>
        <source>auto</source>
        <translation>automatisch</translation>
    </message>
    <message>
        <source>comma-separated</source>
        <translation>durch Kommas getrennt</translation>
    </message>
</context>
<context>
    <name>tw::ui::ConfigLabels</name>
    <message>
        <source>Dataset</source>
        <translation>Datensatz</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>Pfad</translation>
    </message>
    <message>
        <source>Training examples</source>
        <translation>Trainingsbeispiele</translation>
    </message>
    <message>
        <source>Test examples</source>
        <translation>Testbeispiele</translation>
    </message>
    <message>
        <source>Validation share</source>
        <translation>Validierungsanteil</translation>
    </message>
    <message>
        <source>Test share</source>
        <translation>Testanteil</translation>
    </message>
    <message>
        <source>Keep class proportions</source>
        <translation>Klassenanteile beibehalten</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>Batchgröße</translation>
    </message>
    <message>
        <source>Shuffle every epoch</source>
        <translation>Jede Epoche neu mischen</translation>
    </message>
    <message>
        <source>Standardise</source>
        <translation>Standardisieren</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <source>Target column</source>
        <translation>Zielspalte</translation>
    </message>
    <message>
        <source>Feature columns</source>
        <translation>Merkmalsspalten</translation>
    </message>
    <message>
        <source>Categorical columns</source>
        <translation>Kategoriale Spalten</translation>
    </message>
    <message>
        <source>Missing values</source>
        <translation>Fehlende Werte</translation>
    </message>
    <message>
        <source>Image size</source>
        <translation>Bildgröße</translation>
    </message>
    <message>
        <source>Channels</source>
        <translation>Kanäle</translation>
    </message>
    <message>
        <source>Samples</source>
        <translation>Beispiele</translation>
    </message>
    <message>
        <source>Classes</source>
        <translation>Klassen</translation>
    </message>
    <message>
        <source>Noise</source>
        <translation>Rauschen</translation>
    </message>
    <message>
        <source>Sequence length</source>
        <translation>Sequenzlänge</translation>
    </message>
    <message>
        <source>Vocabulary size</source>
        <translation>Vokabulargröße</translation>
    </message>
    <message>
        <source>Random crop padding</source>
        <translation>Rand für zufälligen Ausschnitt</translation>
    </message>
    <message>
        <source>Horizontal flip probability</source>
        <translation>Wahrscheinlichkeit horizontaler Spiegelung</translation>
    </message>
    <message>
        <source>Random erasing probability</source>
        <translation>Wahrscheinlichkeit zufälligen Löschens</translation>
    </message>
    <message>
        <source>Batches prepared ahead</source>
        <translation>Im Voraus vorbereitete Batches</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>Optimierer</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>Lernrate</translation>
    </message>
    <message>
        <source>Momentum</source>
        <translation>Momentum</translation>
    </message>
    <message>
        <source>Nesterov momentum</source>
        <translation>Nesterov-Momentum</translation>
    </message>
    <message>
        <source>Weight decay</source>
        <translation>Gewichtsabnahme</translation>
    </message>
    <message>
        <source>Beta 1</source>
        <translation>Beta 1</translation>
    </message>
    <message>
        <source>Beta 2</source>
        <translation>Beta 2</translation>
    </message>
    <message>
        <source>Smoothing constant</source>
        <translation>Glättungskonstante</translation>
    </message>
    <message>
        <source>Epsilon</source>
        <translation>Epsilon</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>Zeitplan</translation>
    </message>
    <message>
        <source>Warm-up steps</source>
        <translation>Aufwärmschritte</translation>
    </message>
    <message>
        <source>Step size</source>
        <translation>Schrittweite</translation>
    </message>
    <message>
        <source>Milestones</source>
        <translation>Meilensteine</translation>
    </message>
    <message>
        <source>Decay factor</source>
        <translation>Abklingfaktor</translation>
    </message>
    <message>
        <source>Lowest learning rate</source>
        <translation>Niedrigste Lernrate</translation>
    </message>
    <message>
        <source>Rising share</source>
        <translation>Anteil des Anstiegs</translation>
    </message>
    <message>
        <source>Plateau patience</source>
        <translation>Geduld bei Plateau</translation>
    </message>
    <message>
        <source>Clip gradient norm</source>
        <translation>Gradientennorm begrenzen</translation>
    </message>
    <message>
        <source>Clip gradient values</source>
        <translation>Gradientenwerte begrenzen</translation>
    </message>
    <message>
        <source>Batches per step</source>
        <translation>Batches pro Schritt</translation>
    </message>
    <message>
        <source>Label smoothing</source>
        <translation>Label-Glättung</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>Verlust</translation>
    </message>
    <message>
        <source>Huber delta</source>
        <translation>Huber-Delta</translation>
    </message>
    <message>
        <source>Number format</source>
        <translation>Zahlenformat</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Gerät</translation>
    </message>
    <message>
        <source>Memory layout</source>
        <translation>Speicherlayout</translation>
    </message>
    <message>
        <source>Epochs</source>
        <translation>Epochen</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>Seed</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>Threads</translation>
    </message>
    <message>
        <source>Log loss every N steps</source>
        <translation>Verlust alle N Schritte protokollieren</translation>
    </message>
    <message>
        <source>Metric watched</source>
        <translation>Beobachtete Metrik</translation>
    </message>
    <message>
        <source>Patience (epochs)</source>
        <translation>Geduld (Epochen)</translation>
    </message>
    <message>
        <source>Smallest improvement</source>
        <translation>Kleinste Verbesserung</translation>
    </message>
    <message>
        <source>Checkpoint every N steps</source>
        <translation>Checkpoint alle N Schritte</translation>
    </message>
    <message>
        <source>Top-k accuracy: k</source>
        <translation>Top-k-Genauigkeit: k</translation>
    </message>
    <message>
        <source>Processes</source>
        <translation>Prozesse</translation>
    </message>
    <message>
        <source>Backend</source>
        <translation>Backend</translation>
    </message>
    <message>
        <source>Restarts after a failure</source>
        <translation>Neustarts nach einem Fehler</translation>
    </message>
    <message>
        <source>Gradient bucket (MB)</source>
        <translation>Gradienten-Bucket (MB)</translation>
    </message>
    <message>
        <source>Broadcast buffers</source>
        <translation>Puffer verteilen</translation>
    </message>
    <message>
        <source>Collective timeout (s)</source>
        <translation>Zeitlimit kollektiver Operationen (s)</translation>
    </message>
    <message>
        <source>Experiment</source>
        <translation>Experiment</translation>
    </message>
    <message>
        <source>Run name</source>
        <translation>Name des Laufs</translation>
    </message>
    <message>
        <source>Decoded-image cache</source>
        <translation>Cache dekodierter Bilder</translation>
    </message>
    <message>
        <source>Damaged images</source>
        <translation>Beschädigte Bilder</translation>
    </message>
    <message>
        <source>Shuffle shard sets</source>
        <translation>Shard-Sätze mischen</translation>
    </message>
    <message>
        <source>Shuffle buffer (examples)</source>
        <translation>Mischpuffer (Beispiele)</translation>
    </message>
    <message>
        <source>Token width</source>
        <translation>Token-Breite</translation>
    </message>
    <message>
        <source>Random windows per epoch</source>
        <translation>Zufällige Fenster pro Epoche</translation>
    </message>
    <message>
        <source>Read threads</source>
        <translation>Lese-Threads</translation>
    </message>
    <message>
        <source>Data memory budget (MiB)</source>
        <translation>Speicherbudget der Daten (MiB)</translation>
    </message>
    <message>
        <source>Disk cache folder</source>
        <translation>Ordner des Festplatten-Caches</translation>
    </message>
    <message>
        <source>Start from weights</source>
        <translation>Startgewichte</translation>
    </message>
    <message>
        <source>Unfreeze at epochs</source>
        <translation>Auftauen ab Epochen</translation>
    </message>
    <message>
        <source>Unfreeze warm-up steps</source>
        <translation>Aufwärmschritte nach dem Auftauen</translation>
    </message>
    <message>
        <source>Keep only classes</source>
        <translation>Nur diese Klassen</translation>
    </message>
    <message>
        <source>Keep checkpoints of last N epochs</source>
        <translation>Checkpoints der letzten N Epochen behalten</translation>
    </message>
    <message>
        <source>Shard across ranks</source>
        <translation>Über die Ränge verteilen</translation>
    </message>
    <message>
        <source>TensorBoard folder</source>
        <translation>TensorBoard-Ordner</translation>
    </message>
</context>
<context>
    <name>tw::ui::ConfigSections</name>
    <message>
        <source>More data options</source>
        <translation>Weitere Datenoptionen</translation>
    </message>
    <message>
        <source>Splits</source>
        <translation>Aufteilung</translation>
    </message>
    <message>
        <source>Augmentation</source>
        <translation>Augmentierung</translation>
    </message>
    <message>
        <source>Resources</source>
        <translation>Ressourcen</translation>
    </message>
    <message>
        <source>Optimiser</source>
        <translation>Optimierer</translation>
    </message>
    <message>
        <source>Regularisation</source>
        <translation>Regularisierung</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>Zeitplan</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>Verlust</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>Zahlenformat</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>Training</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>Seed</translation>
    </message>
    <message>
        <source>Metrics and logging</source>
        <translation>Metriken und Protokoll</translation>
    </message>
    <message>
        <source>Early stopping</source>
        <translation>Frühes Beenden</translation>
    </message>
    <message>
        <source>Checkpoints</source>
        <translation>Checkpoints</translation>
    </message>
    <message>
        <source>Distributed</source>
        <translation>Verteilt</translation>
    </message>
    <message>
        <source>Tracking</source>
        <translation>Aufzeichnung</translation>
    </message>
</context>
<context>
    <name>tw::ui::ConfusionHeatmap</name>
    <message>
        <source>Predicted</source>
        <translation>Vorhergesagt</translation>
    </message>
    <message>
        <source>Truth</source>
        <translation>Wahrheit</translation>
    </message>
    <message>
        <source>Truth: %1
Predicted: %2
Examples: %3 (%4 of the class)</source>
        <translation>Wahrheit: %1
Vorhergesagt: %2
Beispiele: %3 (%4 der Klasse)</translation>
    </message>
</context>
<context>
    <name>tw::ui::CurvesView</name>
    <message>
        <source>Runs with the same value of this parameter are drawn as one mean curve with a band from the lowest to the highest of them</source>
        <translation>Runs mit gleichem Wert dieses Parameters werden als eine Mittelwertkurve mit einem Band vom kleinsten bis zum größten Wert gezeichnet</translation>
    </message>
    <message>
        <source>Group by</source>
        <translation>Gruppieren nach</translation>
    </message>
    <message>
        <source>None</source>
        <translation>Keine</translation>
    </message>
    <message>
        <source>%1 = %2 (1 run)</source>
        <translation>%1 = %2 (1 Run)</translation>
    </message>
    <message>
        <source>%1 = %2 (%3 runs)</source>
        <translation>%1 = %2 (%3 Runs)</translation>
    </message>
    <message>
        <source>%1: mean and min–max per group, in bins of %2 steps</source>
        <translation>%1: Mittel und Min.–Max. je Gruppe, in Abschnitten zu %2 Schritten</translation>
    </message>
    <message>
        <source>%1: mean and min–max per group</source>
        <translation>%1: Mittel und Min.–Max. je Gruppe</translation>
    </message>
    <message>
        <source>None of these runs recorded %1 yet. Choose another metric above, or wait until the runs log it.</source>
        <translation>Keiner dieser Läufe hat bisher %1 aufgezeichnet. Wählen Sie oben eine andere Metrik oder warten Sie, bis die Läufe sie protokollieren.</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation>Epoche</translation>
    </message>
    <message>
        <source>Wall time</source>
        <translation>Laufzeit</translation>
    </message>
    <message>
        <source>What the runs&apos; curves are drawn against: the optimiser step, the epoch (runs with different batch sizes line up), or the time since each run started. Group bands stay on steps.</source>
        <translation>Wogegen die Kurven der Läufe gezeichnet werden: den Optimiererschritt, die Epoche (Läufe mit verschiedenen Batchgrößen liegen übereinander) oder die Zeit seit dem Start jedes Laufs. Gruppenbänder bleiben bei Schritten.</translation>
    </message>
    <message>
        <source>X axis</source>
        <translation>X-Achse</translation>
    </message>
</context>
<context>
    <name>tw::ui::DataBoundHint</name>
    <message>
        <source>data.cache: memory keeps decoded images, so later epochs skip decoding</source>
        <translation>data.cache: memory behält dekodierte Bilder, sodass spätere Epochen nicht mehr dekodieren</translation>
    </message>
    <message>
        <source>more decode threads (data.workers; `torchwright data bench RUN.yaml` measures each count)</source>
        <translation>mehr Dekodier-Threads (data.workers; `torchwright data bench RUN.yaml` misst jede Anzahl)</translation>
    </message>
    <message>
        <source>data.prefetch above 0 prepares batches ahead</source>
        <translation>data.prefetch über 0 bereitet Batches im Voraus vor</translation>
    </message>
    <message>
        <source>What would help: %1.</source>
        <translation>Was helfen würde: %1.</translation>
    </message>
    <message>
        <source>a larger data.memory_mb keeps more decoded images (the cache held %1 of the last epoch&apos;s), or data.cache: disk keeps them on disk</source>
        <translation>ein größeres data.memory_mb behält mehr dekodierte Bilder (der Cache hielt %1 der letzten Epoche), oder data.cache: disk behält sie auf der Festplatte</translation>
    </message>
    <message>
        <source>Data-bound: this run waited for batches %1 of its training time in the last epoch.</source>
        <translation>Datengebunden: Dieser Lauf hat in der letzten Epoche %1 seiner Trainingszeit auf Batches gewartet.</translation>
    </message>
</context>
<context>
    <name>tw::ui::DataPreview</name>
    <message>
        <source>Reading %1…</source>
        <translation>%1 wird gelesen …</translation>
    </message>
    <message>
        <source>train %1 · validation %2 · test %3</source>
        <translation>Training %1 · Validierung %2 · Test %3</translation>
    </message>
    <message>
        <source>Examples per class</source>
        <translation>Beispiele je Klasse</translation>
    </message>
    <message>
        <source>target: %1</source>
        <translation>Zielspalte: %1</translation>
    </message>
    <message>
        <source>%1: min %2, mean %3, max %4</source>
        <translation>%1: Min. %2, Mittel %3, Max. %4</translation>
    </message>
    <message>
        <source>class</source>
        <translation>Klasse</translation>
    </message>
</context>
<context>
    <name>tw::ui::DesignPage</name>
    <message>
        <source>Design</source>
        <translation>Entwurf</translation>
    </message>
    <message>
        <source>Properties</source>
        <translation>Eigenschaften</translation>
    </message>
    <message>
        <source>YAML</source>
        <translation>YAML</translation>
    </message>
    <message>
        <source>Cannot rename %1 to %2: the name is taken, or not letters, digits, &apos;_&apos;, &apos;-&apos; and &apos;.&apos; starting with a letter.</source>
        <translation>%1 kann nicht in %2 umbenannt werden: Der Name ist vergeben oder besteht nicht aus Buchstaben, Ziffern, &apos;_&apos;, &apos;-&apos; und &apos;.&apos; mit einem Buchstaben am Anfang.</translation>
    </message>
    <message>
        <source>New</source>
        <translation>Neu</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>Öffnen …</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Speichern</translation>
    </message>
    <message>
        <source>Save As…</source>
        <translation>Speichern unter …</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>Rückgängig</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>Wiederholen</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <source>Paste</source>
        <translation>Einfügen</translation>
    </message>
    <message>
        <source>Arrange</source>
        <translation>Anordnen</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>Einpassen</translation>
    </message>
    <message>
        <source>Zoom In</source>
        <translation>Vergrößern</translation>
    </message>
    <message>
        <source>Zoom Out</source>
        <translation>Verkleinern</translation>
    </message>
    <message>
        <source>Open Model</source>
        <translation>Modell öffnen</translation>
    </message>
    <message>
        <source>Model files (*.yaml *.yml);;All files (*)</source>
        <translation>Modelldateien (*.yaml *.yml);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Save Model</source>
        <translation>Modell speichern</translation>
    </message>
    <message>
        <source>Model files (*.model.yaml *.yaml)</source>
        <translation>Modelldateien (*.model.yaml *.yaml)</translation>
    </message>
    <message>
        <source>Nodes: %1</source>
        <translation>Knoten: %1</translation>
    </message>
    <message>
        <source>Parameters: %1</source>
        <translation>Parameter: %1</translation>
    </message>
    <message>
        <source>Problems: %1 · %2</source>
        <translation>Probleme: %1 · %2</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a block name: use letters, digits, &apos;_&apos; and &apos;-&apos;, starting with a letter.</source>
        <translation>„%1“ ist kein Blockname: Buchstaben, Ziffern, „_“ und „-“ verwenden, beginnend mit einem Buchstaben.</translation>
    </message>
    <message>
        <source>Cannot group into a block: %1</source>
        <translation>Gruppieren zu einem Block nicht möglich: %1</translation>
    </message>
    <message>
        <source>Grouped as %1; the block %2 is in the palette under My Blocks.</source>
        <translation>Als %1 gruppiert; der Block %2 steht in der Palette unter „Meine Blöcke“.</translation>
    </message>
    <message>
        <source>Cannot read the block %1 from %2.</source>
        <translation>Der Block %1 kann nicht aus %2 gelesen werden.</translation>
    </message>
    <message>
        <source>Select the nodes to group first.</source>
        <translation>Wählen Sie zuerst die zu gruppierenden Knoten aus.</translation>
    </message>
    <message>
        <source>Group into Block</source>
        <translation>Zu Block gruppieren</translation>
    </message>
    <message>
        <source>Block name (reusable from the palette under My Blocks):</source>
        <translation>Blockname (wiederverwendbar aus der Palette unter „Meine Blöcke“):</translation>
    </message>
    <message>
        <source>Undo %1</source>
        <translation>%1 rückgängig machen</translation>
    </message>
    <message>
        <source>Redo %1</source>
        <translation>%1 wiederholen</translation>
    </message>
    <message>
        <source>Group into Block…</source>
        <translation>Zu Block gruppieren…</translation>
    </message>
    <message>
        <source>Save the selected nodes as a reusable block and frame them as one (Ctrl+G)</source>
        <translation>Die ausgewählten Knoten als wiederverwendbaren Block speichern und als Einheit einrahmen (Strg+G)</translation>
    </message>
    <message>
        <source>Select All</source>
        <translation>Alles auswählen</translation>
    </message>
    <message>
        <source>%1, %2: %3. Not applied; the model keeps its value.</source>
        <translation>%1, %2: %3. Nicht übernommen; das Modell behält seinen Wert.</translation>
    </message>
    <message>
        <source>Empty Model</source>
        <translation>Leeres Modell</translation>
    </message>
    <message>
        <source>From a template</source>
        <translation>Aus einer Vorlage</translation>
    </message>
    <message>
        <source>Start an empty model or one from a template (undoable)</source>
        <translation>Ein leeres Modell oder eines aus einer Vorlage beginnen (rückgängig zu machen)</translation>
    </message>
    <message>
        <source>Lay the model out in layers along the data flow (Ctrl+L)</source>
        <translation>Das Modell in Schichten entlang des Datenflusses anordnen (Strg+L)</translation>
    </message>
    <message>
        <source>Left to Right</source>
        <translation>Von links nach rechts</translation>
    </message>
    <message>
        <source>Lay models out from left to right instead of top to bottom</source>
        <translation>Modelle von links nach rechts statt von oben nach unten anordnen</translation>
    </message>
    <message>
        <source>Unsaved Changes</source>
        <translation>Ungespeicherte Änderungen</translation>
    </message>
    <message>
        <source>The model %1 has changes that are not saved. Save them first?</source>
        <translation>Das Modell %1 hat ungespeicherte Änderungen. Zuerst speichern?</translation>
    </message>
    <message>
        <source>New empty model</source>
        <translation>Neues leeres Modell</translation>
    </message>
    <message>
        <source>New %1</source>
        <translation>Neu: %1</translation>
    </message>
    <message>
        <source>Open &amp;Model…</source>
        <translation>&amp;Modell öffnen …</translation>
    </message>
    <message>
        <source>Open a model file (%1)</source>
        <translation>Eine Modelldatei öffnen (%1)</translation>
    </message>
    <message>
        <source>Show the whole model, zoomed out no further than its op names can be read (Ctrl+0); Zoom Out goes further</source>
        <translation>Das ganze Modell zeigen, höchstens so weit verkleinert, dass die Op-Namen lesbar bleiben (Strg+0); Verkleinern geht weiter</translation>
    </message>
    <message>
        <source>Parameters: %1 (%2 trainable, %3 frozen)</source>
        <translation>Parameter: %1 (%2 trainierbar, %3 eingefroren)</translation>
    </message>
    <message>
        <source>&amp;Import ONNX…</source>
        <translation>ONNX &amp;importieren…</translation>
    </message>
    <message>
        <source>Import an ONNX network as a model file with its weights, and open it here</source>
        <translation>Ein ONNX-Netz als Modelldatei mit seinen Gewichten importieren und hier öffnen</translation>
    </message>
    <message>
        <source>Replace &amp;Head…</source>
        <translation>&amp;Kopf ersetzen…</translation>
    </message>
    <message>
        <source>Swap the classifier layer that feeds the output for a new Linear with another number of classes (undoable)</source>
        <translation>Die Klassifikationsschicht vor der Ausgabe durch eine neue Linear-Schicht mit anderer Klassenzahl ersetzen (rückgängig machbar)</translation>
    </message>
    <message>
        <source>Import ONNX</source>
        <translation>ONNX importieren</translation>
    </message>
    <message>
        <source>ONNX files (*.onnx);;All files (*)</source>
        <translation>ONNX-Dateien (*.onnx);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Imported %1.</source>
        <translation>%1 importiert.</translation>
    </message>
    <message>
        <source>Cannot replace the head: %1</source>
        <translation>Der Kopf kann nicht ersetzt werden: %1</translation>
    </message>
    <message>
        <source>%1 gives %2 class scores. Classes of the new head:</source>
        <translation>%1 liefert %2 Klassenwerte. Klassen des neuen Kopfes:</translation>
    </message>
    <message>
        <source>Classes of the new head %1:</source>
        <translation>Klassen des neuen Kopfes %1:</translation>
    </message>
    <message>
        <source>Replace Head</source>
        <translation>Kopf ersetzen</translation>
    </message>
    <message>
        <source>Only the classifier layer that feeds the output can be replaced</source>
        <translation>Nur die Klassifikationsschicht vor der Ausgabe kann ersetzt werden</translation>
    </message>
</context>
<context>
    <name>tw::ui::EmptyState</name>
    <message>
        <source>Select two or more runs on Runs and press Compare.</source>
        <translation>Wählen Sie auf „Läufe“ zwei oder mehr Läufe und drücken Sie „Vergleichen“.</translation>
    </message>
</context>
<context>
    <name>tw::ui::EvaluationLoader</name>
    <message>
        <source>Could not read the run&apos;s evaluations: %1</source>
        <translation>Die Auswertungen des Runs konnten nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Could not open %1: %2</source>
        <translation>%1 konnte nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <source>%1 is too large for a confusion matrix</source>
        <translation>%1 ist zu groß für eine Konfusionsmatrix</translation>
    </message>
</context>
<context>
    <name>tw::ui::EvaluationPanel</name>
    <message>
        <source>Row shares</source>
        <translation>Zeilenanteile</translation>
    </message>
    <message>
        <source>Which evaluation to show: each validation epoch, and the test set at the end</source>
        <translation>Welche Auswertung gezeigt wird: jede Validierungsepoche und der Testdatensatz am Ende</translation>
    </message>
    <message>
        <source>Show each row as shares of its true class, so the diagonal reads as recall</source>
        <translation>Jede Zeile als Anteile ihrer wahren Klasse zeigen, sodass die Diagonale die Trefferquote (Recall) ist</translation>
    </message>
    <message>
        <source>Class</source>
        <translation>Klasse</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>Präzision</translation>
    </message>
    <message>
        <source>Recall</source>
        <translation>Recall</translation>
    </message>
    <message>
        <source>F1</source>
        <translation>F1</translation>
    </message>
    <message>
        <source>Support</source>
        <translation>Anzahl</translation>
    </message>
    <message>
        <source>Evaluation</source>
        <translation>Auswertung</translation>
    </message>
    <message>
        <source>Reading the run&apos;s evaluations…</source>
        <translation>Die Auswertungen des Runs werden gelesen…</translation>
    </message>
    <message>
        <source>Select a run to see its evaluations.</source>
        <translation>Wählen Sie einen Run, um seine Auswertungen zu sehen.</translation>
    </message>
    <message>
        <source>No confusion matrix recorded yet. A classification run records one at each validation epoch and one for the test set at the end; regression runs have none.</source>
        <translation>Noch keine Konfusionsmatrix aufgezeichnet. Ein Klassifikationsrun zeichnet eine je Validierungsepoche und eine für den Testdatensatz am Ende auf; Regressionsruns haben keine.</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>Genauigkeit</translation>
    </message>
    <message>
        <source>Macro average</source>
        <translation>Makro-Mittel</translation>
    </message>
    <message>
        <source>Weighted average</source>
        <translation>Gewichtetes Mittel</translation>
    </message>
    <message>
        <source>Test set (end of run)</source>
        <translation>Testdatensatz (Ende des Runs)</translation>
    </message>
    <message>
        <source>Epoch %1 (validation)</source>
        <translation>Epoche %1 (Validierung)</translation>
    </message>
    <message>
        <source>%1 · examples: %2 · accuracy %3</source>
        <translation>%1 · Beispiele: %2 · Genauigkeit %3</translation>
    </message>
</context>
<context>
    <name>tw::ui::ExportCheck</name>
    <message>
        <source>Loaded again: the largest difference from the trained model is %1 on %2 test examples.</source>
        <translation>Erneut geladen: Die größte Abweichung vom trainierten Modell beträgt %1 auf %2 Testbeispielen.</translation>
    </message>
    <message>
        <source>ONNX checker and shape inference passed (opset %1); the largest difference from the int8 simulation is %2 on %3 test examples (Torchwright&apos;s reference ONNX evaluator).</source>
        <translation>ONNX-Prüfer und Forminferenz bestanden (Opset %1); die größte Abweichung von der int8-Simulation beträgt %2 auf %3 Testbeispielen (Torchwrights ONNX-Referenzauswerter).</translation>
    </message>
    <message>
        <source>ONNX checker and shape inference passed (opset %1); the largest difference from the trained model is %2 on %3 test examples (Torchwright&apos;s reference ONNX evaluator).</source>
        <translation>ONNX-Prüfer und Forminferenz bestanden (Opset %1); die größte Abweichung vom trainierten Modell beträgt %2 auf %3 Testbeispielen (Torchwrights ONNX-Referenzauswerter).</translation>
    </message>
</context>
<context>
    <name>tw::ui::ExportDialog</name>
    <message>
        <source>Export %1</source>
        <translation>%1 exportieren</translation>
    </message>
    <message>
        <source>TorchScript (.pt)</source>
        <translation>TorchScript (.pt)</translation>
    </message>
    <message>
        <source>ONNX (.onnx)</source>
        <translation>ONNX (.onnx)</translation>
    </message>
    <message>
        <source>Best</source>
        <translation>Bester</translation>
    </message>
    <message>
        <source>Last</source>
        <translation>Letzter</translation>
    </message>
    <message>
        <source>int8 weights and activations (calibrated on training data)</source>
        <translation>int8-Gewichte und -Aktivierungen (an Trainingsdaten kalibriert)</translation>
    </message>
    <message>
        <source>Bake the run&apos;s preprocessing in (the model takes raw inputs)</source>
        <translation>Vorverarbeitung des Laufs einbauen (das Modell nimmt Rohdaten)</translation>
    </message>
    <message>
        <source>Browse...</source>
        <translation>Durchsuchen …</translation>
    </message>
    <message>
        <source>Format:</source>
        <translation>Format:</translation>
    </message>
    <message>
        <source>ONNX opset:</source>
        <translation>ONNX-Opset:</translation>
    </message>
    <message>
        <source>Checkpoint:</source>
        <translation>Checkpoint:</translation>
    </message>
    <message>
        <source>File:</source>
        <translation>Datei:</translation>
    </message>
    <message>
        <source>The export&apos;s check appears here.</source>
        <translation>Die Prüfung des Exports erscheint hier.</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Exportieren</translation>
    </message>
    <message>
        <source>Export to</source>
        <translation>Exportieren nach</translation>
    </message>
    <message>
        <source>Exporting and checking...</source>
        <translation>Wird exportiert und geprüft …</translation>
    </message>
    <message>
        <source>Exported to %1; the check passed.</source>
        <translation>Nach %1 exportiert; die Prüfung ist bestanden.</translation>
    </message>
    <message>
        <source>The export failed: %1</source>
        <translation>Der Export ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Register as a version of the model</source>
        <translation>Als Version des Modells registrieren</translation>
    </message>
    <message>
        <source>model name</source>
        <translation>Modellname</translation>
    </message>
    <message>
        <source>Exported to %1 and registered as %2.</source>
        <translation>Nach %1 exportiert und als %2 registriert.</translation>
    </message>
    <message>
        <source>Exported to %1, but not registered: %2</source>
        <translation>Nach %1 exportiert, aber nicht registriert: %2</translation>
    </message>
    <message>
        <source>End of epoch %1</source>
        <translation>Ende von Epoche %1</translation>
    </message>
</context>
<context>
    <name>tw::ui::FineTuningFields</name>
    <message>
        <source>Fine-tuning</source>
        <translation>Feinabstimmung</translation>
    </message>
    <message>
        <source>Clear to freeze the node: training leaves its parameters as they are (trainable: false in the model file).</source>
        <translation>Abwählen, um den Knoten einzufrieren: Das Training lässt seine Parameter, wie sie sind (trainable: false in der Modelldatei).</translation>
    </message>
    <message>
        <source>default (1)</source>
        <translation>Standard (1)</translation>
    </message>
    <message>
        <source>The run&apos;s learning rate is multiplied by this for the node&apos;s parameters (lr_factor in the model file): 0.1 trains it ten times slower. Above 0; to stop training it, clear Trainable.</source>
        <translation>Die Lernrate des Laufs wird für die Parameter des Knotens mit diesem Wert multipliziert (lr_factor in der Modelldatei): 0,1 trainiert ihn zehnmal langsamer. Größer als 0; um ihn nicht mehr zu trainieren, wählen Sie „Trainierbar“ ab.</translation>
    </message>
    <message>
        <source>Trainable</source>
        <translation>Trainierbar</translation>
    </message>
    <message>
        <source>Learning-rate factor</source>
        <translation>Lernratenfaktor</translation>
    </message>
    <message>
        <source>expected a number above 0, like 0.1</source>
        <translation>erwartet eine Zahl größer als 0, etwa 0,1</translation>
    </message>
    <message>
        <source>must be above 0; to freeze the node, clear Trainable</source>
        <translation>muss größer als 0 sein; um den Knoten einzufrieren, wählen Sie „Trainierbar“ ab</translation>
    </message>
</context>
<context>
    <name>tw::ui::GraphOverview</name>
    <message>
        <source>Overview: press or drag to move the canvas</source>
        <translation>Übersicht: klicken oder ziehen, um die Zeichenfläche zu verschieben</translation>
    </message>
</context>
<context>
    <name>tw::ui::GridHeatmap</name>
    <message>
        <source>%1
%2 %3: %4</source>
        <translation>%1
%2 %3: %4</translation>
    </message>
    <message>
        <source>not recorded</source>
        <translation>nicht aufgezeichnet</translation>
    </message>
</context>
<context>
    <name>tw::ui::ImportDialog</name>
    <message>
        <source>Input shape</source>
        <translation>Eingabeform</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>Importieren</translation>
    </message>
    <message>
        <source>Cancel Import</source>
        <translation>Import abbrechen</translation>
    </message>
    <message>
        <source>Import ONNX</source>
        <translation>ONNX importieren</translation>
    </message>
    <message>
        <source>C,H,W, e.g. 3,224,224</source>
        <translation>C,H,W, z. B. 3,224,224</translation>
    </message>
    <message>
        <source>One sample&apos;s shape, for a file that leaves its input size open</source>
        <translation>Die Form eines Beispiels, für eine Datei, die ihre Eingabegröße offen lässt</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Durchsuchen…</translation>
    </message>
    <message>
        <source>ONNX file</source>
        <translation>ONNX-Datei</translation>
    </message>
    <message>
        <source>Model file to write</source>
        <translation>Zu schreibende Modelldatei</translation>
    </message>
    <message>
        <source>ONNX node</source>
        <translation>ONNX-Knoten</translation>
    </message>
    <message>
        <source>Op type</source>
        <translation>Op-Typ</translation>
    </message>
    <message>
        <source>Became</source>
        <translation>Wurde zu</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Hinweis</translation>
    </message>
    <message>
        <source>Import cancelled; the open design is unchanged.</source>
        <translation>Import abgebrochen; der offene Entwurf ist unverändert.</translation>
    </message>
    <message>
        <source>ONNX files (*.onnx);;All files (*)</source>
        <translation>ONNX-Dateien (*.onnx);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Model File to Write</source>
        <translation>Zu schreibende Modelldatei</translation>
    </message>
    <message>
        <source>Model files (*.model.yaml *.yaml)</source>
        <translation>Modelldateien (*.model.yaml *.yaml)</translation>
    </message>
    <message>
        <source>Choose the ONNX file and the model file to write first.</source>
        <translation>Wählen Sie zuerst die ONNX-Datei und die zu schreibende Modelldatei.</translation>
    </message>
    <message>
        <source>Importing %1…</source>
        <translation>%1 wird importiert…</translation>
    </message>
    <message>
        <source>torchwright import refused its arguments; nothing was written.</source>
        <translation>torchwright import hat seine Argumente abgelehnt; nichts wurde geschrieben.</translation>
    </message>
    <message>
        <source>The file leaves its input size open. Give one sample&apos;s shape (C,H,W) and import again.</source>
        <translation>Die Datei lässt ihre Eingabegröße offen. Geben Sie die Form eines Beispiels (C,H,W) an und importieren Sie erneut.</translation>
    </message>
    <message>
        <source>Not imported; the open design is unchanged.</source>
        <translation>Nicht importiert; der offene Entwurf ist unverändert.</translation>
    </message>
    <message>
        <source>The import did not finish; the open design is unchanged.</source>
        <translation>Der Import wurde nicht beendet; der offene Entwurf ist unverändert.</translation>
    </message>
    <message>
        <source>The model file was written but does not open: %1</source>
        <translation>Die Modelldatei wurde geschrieben, lässt sich aber nicht öffnen: %1</translation>
    </message>
    <message>
        <source>Imported %1 ONNX nodes (opset %2) as %3 model nodes with %4 parameters in %5 s; the weights are in %6.</source>
        <translation>%1 ONNX-Knoten (Opset %2) als %3 Modellknoten mit %4 Parametern in %5 s importiert; die Gewichte liegen in %6.</translation>
    </message>
</context>
<context>
    <name>tw::ui::LaunchPage</name>
    <message>
        <source>Launch</source>
        <translation>Starten</translation>
    </message>
    <message>
        <source>Not launched: %1</source>
        <translation>Nicht gestartet: %1</translation>
    </message>
    <message>
        <source>the dataset&apos;s folder or file (CSV, image folder; empty: the system&apos;s copy)</source>
        <translation>Ordner oder Datei des Datensatzes (CSV, Bildordner; leer: die Kopie des Systems)</translation>
    </message>
    <message>
        <source>all</source>
        <translation>alle</translation>
    </message>
    <message>
        <source>every epoch</source>
        <translation>jede Epoche</translation>
    </message>
    <message>
        <source>generated</source>
        <translation>automatisch</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>Daten</translation>
    </message>
    <message>
        <source>Dataset</source>
        <translation>Datensatz</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>Pfad</translation>
    </message>
    <message>
        <source>Training examples</source>
        <translation>Trainingsbeispiele</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>Batchgröße</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>Training</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>Optimierer</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>Lernrate</translation>
    </message>
    <message>
        <source>Epochs</source>
        <translation>Epochen</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Gerät</translation>
    </message>
    <message>
        <source>Processes</source>
        <translation>Prozesse</translation>
    </message>
    <message>
        <source>Experiment</source>
        <translation>Experiment</translation>
    </message>
    <message>
        <source>Run name</source>
        <translation>Name des Laufs</translation>
    </message>
    <message>
        <source>Train the Design page&apos;s model with these settings (Ctrl+Return)</source>
        <translation>Das Modell der Entwurfsseite mit diesen Einstellungen trainieren (Strg+Eingabe)</translation>
    </message>
    <message>
        <source>Run %1 is training in the background.</source>
        <translation>Lauf %1 trainiert im Hintergrund.</translation>
    </message>
    <message>
        <source>Open a workspace first.</source>
        <translation>Öffnen Sie zuerst einen Arbeitsbereich.</translation>
    </message>
    <message>
        <source>The model has problems; fix them on the Design page first.</source>
        <translation>Das Modell hat Fehler; beheben Sie sie zuerst auf der Entwurfsseite.</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>Wird gestartet …</translation>
    </message>
    <message>
        <source>Preview Data</source>
        <translation>Datenvorschau</translation>
    </message>
    <message>
        <source>The column to predict; Preview Data lists the table&apos;s columns (default: the last)</source>
        <translation>Die vorherzusagende Spalte; „Daten ansehen“ listet die Spalten der Tabelle (Standard: die letzte)</translation>
    </message>
    <message>
        <source>Empty fields, NA, NaN and ?: stop with the row&apos;s line, drop the row, or fill with the column&apos;s mean (most frequent value) or zero</source>
        <translation>Leere Felder, NA, NaN und ?: mit der Zeilennummer abbrechen, die Zeile verwerfen oder mit dem Mittelwert (häufigsten Wert) der Spalte bzw. null auffüllen</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Durchsuchen…</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <source>Target column</source>
        <translation>Zielspalte</translation>
    </message>
    <message>
        <source>Missing values</source>
        <translation>Fehlende Werte</translation>
    </message>
    <message>
        <source>Categorical columns</source>
        <translation>Kategoriale Spalten</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>Columns of text or codes, comma-separated: each becomes one 0/1 column per value; any other column must hold numbers</source>
        <translation>Spalten mit Text oder Codes, durch Kommas getrennt: jede wird zu einer 0/1-Spalte je Wert; jede andere Spalte muss Zahlen enthalten</translation>
    </message>
    <message>
        <source>Samples</source>
        <translation>Beispiele</translation>
    </message>
    <message>
        <source>Classes</source>
        <translation>Klassen</translation>
    </message>
    <message>
        <source>Noise</source>
        <translation>Rauschen</translation>
    </message>
    <message>
        <source>CSV Table</source>
        <translation>CSV-Tabelle</translation>
    </message>
    <message>
        <source>CSV tables (*.csv);;All files (*)</source>
        <translation>CSV-Tabellen (*.csv);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Image Folder (one subfolder per class)</source>
        <translation>Bildordner (ein Unterordner je Klasse)</translation>
    </message>
    <message>
        <source>Folder with the IDX files</source>
        <translation>Ordner mit den IDX-Dateien</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Choose a model file first.</source>
        <translation>Wählen Sie zuerst eine Modelldatei.</translation>
    </message>
    <message>
        <source>Checking the run…</source>
        <translation>Der Lauf wird geprüft …</translation>
    </message>
    <message>
        <source>Run %1 finished.</source>
        <translation>Lauf %1 ist beendet.</translation>
    </message>
    <message>
        <source>Run %1 failed.</source>
        <translation>Lauf %1 ist fehlgeschlagen.</translation>
    </message>
    <message>
        <source>Run %1 failed: %2</source>
        <translation>Lauf %1 ist fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>Run %1 was stopped.</source>
        <translation>Lauf %1 wurde angehalten.</translation>
    </message>
    <message>
        <source>Run %1 was stopped: %2</source>
        <translation>Lauf %1 wurde angehalten: %2</translation>
    </message>
    <message>
        <source>Packed Shard Set (torchwright pack&apos;s folder)</source>
        <translation>Gepackter Shard-Satz (Ordner von torchwright pack)</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>%1 wird gelesen …</translation>
    </message>
    <message>
        <source>Opened %1; Launch trains it as the form now shows.</source>
        <translation>%1 geöffnet; Starten trainiert ihn so, wie das Formular ihn jetzt zeigt.</translation>
    </message>
    <message>
        <source>Cannot open the run file: %1</source>
        <translation>Die Laufdatei lässt sich nicht öffnen: %1</translation>
    </message>
    <message>
        <source>Open Run File</source>
        <translation>Laufdatei öffnen</translation>
    </message>
    <message>
        <source>Run files (*.run.yaml *.yaml *.yml);;All files (*)</source>
        <translation>Laufdateien (*.run.yaml *.yaml *.yml);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Save Run File</source>
        <translation>Laufdatei speichern</translation>
    </message>
    <message>
        <source>Saved %1.</source>
        <translation>%1 gespeichert.</translation>
    </message>
    <message>
        <source>Cannot replace the head: %1</source>
        <translation>Der Kopf kann nicht ersetzt werden: %1</translation>
    </message>
    <message>
        <source>The model&apos;s head now gives %1 class scores; Undo on the Design page takes it back.</source>
        <translation>Der Kopf des Modells liefert jetzt %1 Klassenwerte; Rückgängig auf der Seite „Entwurf“ nimmt das zurück.</translation>
    </message>
    <message>
        <source>Replace head (%1 classes)</source>
        <translation>Kopf ersetzen (%1 Klassen)</translation>
    </message>
    <message>
        <source>The model gives %1 class scores but the data has %2 classes: make its last Linear layer a new one with %2 outputs (undoable on the Design page)</source>
        <translation>Das Modell liefert %1 Klassenwerte, die Daten haben aber %2 Klassen: seine letzte Linear-Schicht durch eine neue mit %2 Ausgaben ersetzen (auf der Seite „Entwurf“ rückgängig machbar)</translation>
    </message>
    <message>
        <source>Not launched: the model gives %1 class scores but the data has %2 classes; Replace head (%2 classes) gives the model one score per class.</source>
        <translation>Nicht gestartet: Das Modell liefert %1 Klassenwerte, die Daten haben aber %2 Klassen; „Kopf ersetzen (%2 Klassen)“ gibt dem Modell einen Wert je Klasse.</translation>
    </message>
</context>
<context>
    <name>tw::ui::LayerNormsPanel</name>
    <message>
        <source>Weight norms</source>
        <translation>Gewichtsnormen</translation>
    </message>
    <message>
        <source>Gradient norms</source>
        <translation>Gradientennormen</translation>
    </message>
    <message>
        <source>The L2 norm of each parameter tensor (or of its gradient) at the end of each epoch</source>
        <translation>Die L2-Norm jedes Parametertensors (oder seines Gradienten) am Ende jeder Epoche</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>Schicht</translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation>Epoche</translation>
    </message>
    <message>
        <source>Could not read the run&apos;s layer norms: %1</source>
        <translation>Die Schichtnormen des Laufs konnten nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>No per-layer norms recorded yet: they are written at the end of each epoch.</source>
        <translation>Noch keine Normen je Schicht aufgezeichnet: Sie werden am Ende jeder Epoche geschrieben.</translation>
    </message>
    <message>
        <source>Colour on a logarithmic scale; hover a cell for its value.</source>
        <translation>Farbe auf logarithmischer Skala; für den Wert mit der Maus über eine Zelle fahren.</translation>
    </message>
    <message>
        <source>Hover a cell for its value.</source>
        <translation>Für den Wert mit der Maus über eine Zelle fahren.</translation>
    </message>
    <message>
        <source>Loading the layer norms…</source>
        <translation>Die Schichtnormen werden geladen…</translation>
    </message>
</context>
<context>
    <name>tw::ui::MainWindow</name>
    <message>
        <source>Torchwright Studio</source>
        <translation>Torchwright Studio</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Open Workspace…</source>
        <translation>Arbeitsbereich ö&amp;ffnen …</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;About Torchwright Studio</source>
        <translation>Ü&amp;ber Torchwright Studio</translation>
    </message>
    <message>
        <source>Open Workspace</source>
        <translation>Arbeitsbereich öffnen</translation>
    </message>
    <message>
        <source>Cannot open the workspace %1:
%2

Choose a folder you can write to.</source>
        <translation>Der Arbeitsbereich %1 kann nicht geöffnet werden:
%2

Wählen Sie einen Ordner, in den Sie schreiben dürfen.</translation>
    </message>
    <message>
        <source>%1 — Torchwright Studio</source>
        <translation>%1 — Torchwright Studio</translation>
    </message>
    <message>
        <source>Workspace: %1</source>
        <translation>Arbeitsbereich: %1</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>Verbinde …</translation>
    </message>
    <message>
        <source>About Torchwright Studio</source>
        <translation>Über Torchwright Studio</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Torchwright Studio %1&lt;/h3&gt;&lt;p&gt;A workbench for deep-learning experiments: design models, train them, watch them learn and compare runs.&lt;/p&gt;&lt;p&gt;Built with Qt %2.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Torchwright Studio %1&lt;/h3&gt;&lt;p&gt;Eine Werkbank für Deep-Learning-Experimente: Modelle entwerfen, trainieren, beim Lernen beobachten und Läufe vergleichen.&lt;/p&gt;&lt;p&gt;Erstellt mit Qt %2.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Live</source>
        <translation>Live</translation>
    </message>
    <message>
        <source>Following %1 as training processes write to it</source>
        <translation>Verfolgt %1, während Trainingsprozesse hineinschreiben</translation>
    </message>
    <message>
        <source>Database unavailable — retrying</source>
        <translation>Datenbank nicht verfügbar — neuer Versuch läuft</translation>
    </message>
    <message>
        <source>Cannot read the tracking database: %1. Studio keeps retrying; check that the workspace folder is readable.</source>
        <translation>Die Tracking-Datenbank kann nicht gelesen werden: %1. Studio versucht es weiter; prüfen Sie, ob der Arbeitsbereich-Ordner lesbar ist.</translation>
    </message>
    <message>
        <source>Runs: %1</source>
        <translation>Läufe: %1</translation>
    </message>
    <message>
        <source>Design</source>
        <translation>Entwurf</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>Läufe</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Design</source>
        <translation>&amp;Entwurf</translation>
    </message>
    <message>
        <source>&amp;Runs</source>
        <translation>&amp;Läufe</translation>
    </message>
    <message>
        <source>Launch</source>
        <translation>Starten</translation>
    </message>
    <message>
        <source>&amp;Launch</source>
        <translation>&amp;Starten</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Vergleichen</translation>
    </message>
    <message>
        <source>&amp;Compare</source>
        <translation>&amp;Vergleichen</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Sprache</translation>
    </message>
    <message>
        <source>System Language</source>
        <translation>Systemsprache</translation>
    </message>
    <message>
        <source>The language changes when Studio starts again.</source>
        <translation>Die Sprache wechselt beim nächsten Start von Studio.</translation>
    </message>
    <message>
        <source>Sweeps</source>
        <translation>Suchläufe</translation>
    </message>
    <message>
        <source>Not applied to the Launch page: %1</source>
        <translation>Nicht auf die Startseite übernommen: %1</translation>
    </message>
    <message>
        <source>S&amp;weeps</source>
        <translation>S&amp;uchläufe</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>Modelle</translation>
    </message>
    <message>
        <source>&amp;Models</source>
        <translation>&amp;Modelle</translation>
    </message>
    <message>
        <source>Cannot clone the run: %1</source>
        <translation>Der Lauf kann nicht übernommen werden: %1</translation>
    </message>
    <message>
        <source>Resuming: %1</source>
        <translation>Wird fortgesetzt: %1</translation>
    </message>
    <message>
        <source>Cannot resume: %1</source>
        <translation>Fortsetzen nicht möglich: %1</translation>
    </message>
    <message>
        <source>Reproducing: %1</source>
        <translation>Wird reproduziert: %1</translation>
    </message>
    <message>
        <source>Cannot reproduce: %1</source>
        <translation>Reproduzieren nicht möglich: %1</translation>
    </message>
    <message>
        <source>&amp;User Guide</source>
        <translation>&amp;Benutzerhandbuch</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>&amp;Tastenkürzel</translation>
    </message>
    <message>
        <source>Reopened the tracking database (%1); the runs were read again.</source>
        <translation>Die Tracking-Datenbank wurde neu geöffnet (%1); die Läufe wurden neu gelesen.</translation>
    </message>
    <message>
        <source>Not updating</source>
        <translation>Keine Aktualisierung</translation>
    </message>
    <message>
        <source>Open &amp;Run File…</source>
        <translation>&amp;Laufdatei öffnen …</translation>
    </message>
    <message>
        <source>&amp;Examples</source>
        <translation>&amp;Beispiele</translation>
    </message>
    <message>
        <source>No example run files found</source>
        <translation>Keine Beispiel-Laufdateien gefunden</translation>
    </message>
    <message>
        <source>&amp;Save Run File…</source>
        <translation>Laufdatei &amp;speichern …</translation>
    </message>
    <message>
        <source>&amp;Pack Dataset…</source>
        <translation>Datensatz &amp;packen …</translation>
    </message>
    <message>
        <source>&amp;Model</source>
        <translation>&amp;Modell</translation>
    </message>
    <message>
        <source>Tracking &amp;Store…</source>
        <translation>Tracking-&amp;Speicher…</translation>
    </message>
    <message>
        <source>Record this workspace&apos;s runs in its own tracking.db or in a shared PostgreSQL database</source>
        <translation>Die Läufe dieses Arbeitsbereichs in seiner eigenen tracking.db oder in einer gemeinsamen PostgreSQL-Datenbank aufzeichnen</translation>
    </message>
    <message>
        <source>Report written to %1</source>
        <translation>Bericht geschrieben nach %1</translation>
    </message>
    <message>
        <source>Cannot write the report: %1</source>
        <translation>Der Bericht kann nicht geschrieben werden: %1</translation>
    </message>
    <message>
        <source>Export &amp;Report…</source>
        <translation>&amp;Bericht exportieren …</translation>
    </message>
    <message>
        <source>One self-contained HTML page about the runs selected on the Runs page</source>
        <translation>Eine eigenständige HTML-Seite über die auf der Seite „Läufe“ gewählten Läufe</translation>
    </message>
</context>
<context>
    <name>tw::ui::MetricChart</name>
    <message>
        <source>Step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>Show All Steps</source>
        <translation>Alle Schritte zeigen</translation>
    </message>
    <message>
        <source>%1 (no epoch recorded yet)</source>
        <translation>%1 (noch keine Epoche aufgezeichnet)</translation>
    </message>
    <message>
        <source>%1 (no times recorded)</source>
        <translation>%1 (keine Zeiten aufgezeichnet)</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>Schritt %1</translation>
    </message>
    <message>
        <source>epoch %1</source>
        <translation>Epoche %1</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 · %2: %3</source>
        <translation>%1 · %2: %3</translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation>Epoche</translation>
    </message>
    <message>
        <source>Time since start (h)</source>
        <translation>Zeit seit dem Start (h)</translation>
    </message>
    <message>
        <source>Time since start (min)</source>
        <translation>Zeit seit dem Start (min)</translation>
    </message>
    <message>
        <source>Time since start (s)</source>
        <translation>Zeit seit dem Start (s)</translation>
    </message>
</context>
<context>
    <name>tw::ui::ModelDocument</name>
    <message>
        <source>Add %1</source>
        <translation>%1 hinzufügen</translation>
    </message>
    <message>
        <source>Move %1</source>
        <translation>%1 verschieben</translation>
    </message>
    <message>
        <source>Arrange automatically</source>
        <translation>Automatisch anordnen</translation>
    </message>
    <message>
        <source>Edit YAML</source>
        <translation>YAML bearbeiten</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>%1 kann nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>No template named %1</source>
        <translation>Keine Vorlage namens %1</translation>
    </message>
    <message>
        <source>Move %1 nodes</source>
        <translation>%1 Knoten verschieben</translation>
    </message>
    <message>
        <source>Paste</source>
        <translation>Einfügen</translation>
    </message>
    <message>
        <source>Select the nodes to group first.</source>
        <translation>Wählen Sie zuerst die zu gruppierenden Knoten aus.</translation>
    </message>
    <message>
        <source>A selected node no longer exists.</source>
        <translation>Ein ausgewählter Knoten existiert nicht mehr.</translation>
    </message>
    <message>
        <source>%1 is an Input: a block takes its inputs from the model.</source>
        <translation>%1 ist ein Input: Ein Block erhält seine Eingaben aus dem Modell.</translation>
    </message>
    <message>
        <source>Group into block %1</source>
        <translation>Zu Block %1 gruppieren</translation>
    </message>
    <message>
        <source>Insert block %1</source>
        <translation>Block %1 einfügen</translation>
    </message>
    <message>
        <source>%1 is where data comes in: it reads no other node.</source>
        <translation>%1 ist der Eingang der Daten: es liest keinen anderen Knoten.</translation>
    </message>
    <message>
        <source>%1 (%2) takes %3 inputs and has them all; delete an edge into it first.</source>
        <translation>%1 (%2) nimmt %3 Eingänge und hat sie alle; löschen Sie zuerst eine Kante dorthin.</translation>
    </message>
    <message>
        <source>Not connected: %2 already feeds %1, so %1 -&gt; %2 would be a cycle.</source>
        <translation>Nicht verbunden: %2 speist bereits %1, also wäre %1 -&gt; %2 ein Zyklus.</translation>
    </message>
    <message>
        <source>Not connected: %1</source>
        <translation>Nicht verbunden: %1</translation>
    </message>
    <message>
        <source>%1 already reads %2.</source>
        <translation>%1 liest bereits %2.</translation>
    </message>
    <message>
        <source>%1 now reads %2 instead of %3 (Undo puts %3 back).</source>
        <translation>%1 liest jetzt %2 statt %3 (Rückgängig stellt %3 wieder her).</translation>
    </message>
    <message>
        <source>Add %1 after %2</source>
        <translation>%1 nach %2 einfügen</translation>
    </message>
    <message>
        <source>Make room for %1</source>
        <translation>Platz für %1 schaffen</translation>
    </message>
    <message>
        <source>Unfreeze %1</source>
        <translation>Einfrieren von %1 aufheben</translation>
    </message>
    <message>
        <source>Freeze %1</source>
        <translation>%1 einfrieren</translation>
    </message>
    <message>
        <source>Set %1.lr_factor</source>
        <translation>%1.lr_factor setzen</translation>
    </message>
    <message>
        <source>Recompute %1&apos;s activations</source>
        <translation>Aktivierungen von %1 neu berechnen</translation>
    </message>
    <message>
        <source>Keep %1&apos;s activations</source>
        <translation>Aktivierungen von %1 behalten</translation>
    </message>
</context>
<context>
    <name>tw::ui::ModelHead</name>
    <message>
        <source>The model has no output node.</source>
        <translation>Das Modell hat keinen Ausgabeknoten.</translation>
    </message>
    <message>
        <source>The model&apos;s graph has a cycle.</source>
        <translation>Der Graph des Modells enthält einen Zyklus.</translation>
    </message>
    <message>
        <source>%1 (%2) has parameters and comes after any Linear layer; the head to replace is the Linear that feeds the output.</source>
        <translation>%1 (%2) hat Parameter und folgt auf jede Linear-Schicht; ersetzt wird die Linear-Schicht, die die Ausgabe speist.</translation>
    </message>
    <message>
        <source>%1 (%2) before the output does not have one input; the head to replace is the Linear that feeds the output.</source>
        <translation>%1 (%2) vor der Ausgabe hat nicht genau einen Eingang; ersetzt wird die Linear-Schicht, die die Ausgabe speist.</translation>
    </message>
    <message>
        <source>%1 reads a node the model does not have.</source>
        <translation>%1 liest einen Knoten, den das Modell nicht hat.</translation>
    </message>
    <message>
        <source>A head needs at least one output.</source>
        <translation>Ein Kopf braucht mindestens eine Ausgabe.</translation>
    </message>
    <message>
        <source>Replace head %1 (%2 classes)</source>
        <translation>Kopf %1 ersetzen (%2 Klassen)</translation>
    </message>
</context>
<context>
    <name>tw::ui::ModelSource</name>
    <message>
        <source>Browse…</source>
        <translation>Durchsuchen …</translation>
    </message>
    <message>
        <source>Open design</source>
        <translation>Offener Entwurf</translation>
    </message>
    <message>
        <source>Model file…</source>
        <translation>Modelldatei …</translation>
    </message>
    <message>
        <source>Train the Design page&apos;s model, or a model file the run file then names</source>
        <translation>Das Modell der Entwurfsseite trainieren oder eine Modelldatei, die die Laufdatei dann nennt</translation>
    </message>
    <message>
        <source>a .model.yaml file</source>
        <translation>eine .model.yaml-Datei</translation>
    </message>
    <message>
        <source>Model: choose a model file</source>
        <translation>Modell: Modelldatei wählen</translation>
    </message>
    <message>
        <source>Model: file %1</source>
        <translation>Modell: Datei %1</translation>
    </message>
    <message>
        <source>(unnamed)</source>
        <translation>(ohne Namen)</translation>
    </message>
    <message>
        <source>Model: the open design %1 (%2 nodes)</source>
        <translation>Modell: der offene Entwurf %1 (%2 Knoten)</translation>
    </message>
    <message>
        <source>Model File</source>
        <translation>Modelldatei</translation>
    </message>
    <message>
        <source>Model files (*.model.yaml *.yaml);;All files (*)</source>
        <translation>Modelldateien (*.model.yaml *.yaml);;Alle Dateien (*)</translation>
    </message>
</context>
<context>
    <name>tw::ui::ModelStage</name>
    <message>
        <source>None</source>
        <translation>Keine</translation>
    </message>
    <message>
        <source>Staging</source>
        <translation>Erprobung</translation>
    </message>
    <message>
        <source>Production</source>
        <translation>Produktion</translation>
    </message>
    <message>
        <source>Archived</source>
        <translation>Archiviert</translation>
    </message>
</context>
<context>
    <name>tw::ui::ModelsPage</name>
    <message>
        <source>Promote to Staging</source>
        <translation>Nach Staging befördern</translation>
    </message>
    <message>
        <source>Promote to Production</source>
        <translation>In Produktion befördern</translation>
    </message>
    <message>
        <source>Archive</source>
        <translation>Archivieren</translation>
    </message>
    <message>
        <source>Open Run</source>
        <translation>Lauf öffnen</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>Try It</source>
        <translation>Ausprobieren</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>Version</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>Stufe</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>Format</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <source>Registered</source>
        <translation>Registriert</translation>
    </message>
    <message>
        <source>File</source>
        <translation>Datei</translation>
    </message>
    <message>
        <source>Register an export with `torchwright models register NAME FILE`; its versions and their lineage appear here.</source>
        <translation>Registrieren Sie einen Export mit `torchwright models register NAME DATEI`; seine Versionen und ihre Herkunft erscheinen hier.</translation>
    </message>
    <message>
        <source>Example</source>
        <translation>Beispiel</translation>
    </message>
    <message>
        <source>Predicted</source>
        <translation>Vorhergesagt</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>Label</translation>
    </message>
    <message>
        <source>Confidence</source>
        <translation>Konfidenz</translation>
    </message>
    <message>
        <source>How many of the run&apos;s test examples to predict</source>
        <translation>Wie viele Testbeispiele des Laufs vorhergesagt werden</translation>
    </message>
    <message>
        <source>Run the version&apos;s TorchScript file in the worker on the first test examples of its run&apos;s data</source>
        <translation>Die TorchScript-Datei der Version im Worker auf die ersten Testbeispiele der Daten ihres Laufs anwenden</translation>
    </message>
    <message>
        <source>Test examples:</source>
        <translation>Testbeispiele:</translation>
    </message>
    <message>
        <source>The registry could not be read: %1</source>
        <translation>Die Registry konnte nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Predicting with %1...</source>
        <translation>Vorhersage mit %1 …</translation>
    </message>
    <message>
        <source>Try It failed: %1</source>
        <translation>Ausprobieren fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>The number of the first test example to predict (0 is the first)</source>
        <translation>Die Nummer des ersten vorherzusagenden Testbeispiels (0 ist das erste)</translation>
    </message>
    <message>
        <source>from number:</source>
        <translation>ab Nummer:</translation>
    </message>
    <message>
        <source>The version&apos;s file is missing: there is nothing to run.</source>
        <translation>Die Datei der Version fehlt: es gibt nichts auszuführen.</translation>
    </message>
    <message>
        <source>This version is %1; Try It runs TorchScript (torchwright predict), so it runs %2, the TorchScript export of the same run.</source>
        <translation>Diese Version ist %1; Ausprobieren führt TorchScript aus (torchwright predict), also führt es %2 aus, den TorchScript-Export desselben Laufs.</translation>
    </message>
    <message>
        <source>This version is %1, and Try It runs TorchScript files (torchwright predict). Its run has no TorchScript export: export the run as TorchScript (Runs page, Export...) to try it here.</source>
        <translation>Diese Version ist %1, und Ausprobieren führt TorchScript-Dateien aus (torchwright predict). Ihr Lauf hat keinen TorchScript-Export: exportieren Sie den Lauf als TorchScript (Seite Läufe, Exportieren …), um ihn hier auszuprobieren.</translation>
    </message>
    <message>
        <source>No images: %1</source>
        <translation>Keine Bilder: %1</translation>
    </message>
</context>
<context>
    <name>tw::ui::NodeItem</name>
    <message>
        <source>Output shape: %1</source>
        <translation>Ausgabeform: %1</translation>
    </message>
    <message>
        <source>%1 params</source>
        <translation>%1 Parameter</translation>
    </message>
    <message>
        <source>frozen</source>
        <translation>eingefroren</translation>
    </message>
    <message>
        <source>lr ×%1</source>
        <translation>LR ×%1</translation>
    </message>
    <message>
        <source>Frozen: training leaves its parameters as they are.</source>
        <translation>Eingefroren: Das Training lässt seine Parameter, wie sie sind.</translation>
    </message>
    <message>
        <source>Learning rate: the run&apos;s times %1.</source>
        <translation>Lernrate: die des Laufs mal %1.</translation>
    </message>
</context>
<context>
    <name>tw::ui::NumberFormat</name>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
</context>
<context>
    <name>tw::ui::OnnxImportRunner</name>
    <message>
        <source>torchwright import stopped unexpectedly.</source>
        <translation>torchwright import wurde unerwartet beendet.</translation>
    </message>
    <message>
        <source>Cannot start %1: %2</source>
        <translation>%1 kann nicht gestartet werden: %2</translation>
    </message>
</context>
<context>
    <name>tw::ui::OnnxImportText</name>
    <message>
        <source>torchwright import printed no report: %1</source>
        <translation>torchwright import hat keinen Bericht ausgegeben: %1</translation>
    </message>
    <message>
        <source>no node list</source>
        <translation>keine Knotenliste</translation>
    </message>
    <message>
        <source>folded into %1</source>
        <translation>in %1 eingefaltet</translation>
    </message>
    <message>
        <source>computed as a constant</source>
        <translation>als Konstante berechnet</translation>
    </message>
    <message>
        <source>dropped (no effect at inference)</source>
        <translation>entfernt (wirkungslos bei der Inferenz)</translation>
    </message>
</context>
<context>
    <name>tw::ui::OpPalette</name>
    <message>
        <source>Inputs</source>
        <translation>Eingaben</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>Schichten</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>Aktivierungen</translation>
    </message>
    <message>
        <source>Normalization</source>
        <translation>Normalisierung</translation>
    </message>
    <message>
        <source>Pooling</source>
        <translation>Pooling</translation>
    </message>
    <message>
        <source>Merge</source>
        <translation>Zusammenführen</translation>
    </message>
    <message>
        <source>Reshape</source>
        <translation>Umformen</translation>
    </message>
    <message>
        <source>Inputs: %1 or more</source>
        <translation>Eingänge: %1 oder mehr</translation>
    </message>
    <message>
        <source>Inputs: %1</source>
        <translation>Eingänge: %1</translation>
    </message>
    <message>
        <source>Inputs: %1 to %2</source>
        <translation>Eingänge: %1 bis %2</translation>
    </message>
    <message>
        <source>Search layers…</source>
        <translation>Schichten suchen …</translation>
    </message>
    <message>
        <source>Blocks</source>
        <translation>Blöcke</translation>
    </message>
    <message>
        <source>My Blocks</source>
        <translation>Meine Blöcke</translation>
    </message>
    <message>
        <source>Your block %1: inserts its nodes as one group</source>
        <translation>Ihr Block %1: fügt seine Knoten als eine Gruppe ein</translation>
    </message>
</context>
<context>
    <name>tw::ui::PackDialog</name>
    <message>
        <source>Pack Dataset</source>
        <translation>Datensatz packen</translation>
    </message>
    <message>
        <source>Writes a dataset as packed shards (WebDataset tar files with an index and a manifest) that training streams from and Python&apos;s tarfile reads.</source>
        <translation>Schreibt einen Datensatz als gepackte Shards (WebDataset-Tar-Dateien mit Index und Manifest), aus denen das Training streamt und die Pythons tarfile liest.</translation>
    </message>
    <message>
        <source>an image folder, an IDX folder, a CSV file or a run file</source>
        <translation>ein Bildordner, ein IDX-Ordner, eine CSV-Datei oder eine Lauf-Datei</translation>
    </message>
    <message>
        <source>Folder…</source>
        <translation>Ordner …</translation>
    </message>
    <message>
        <source>File…</source>
        <translation>Datei …</translation>
    </message>
    <message>
        <source>Dataset folder</source>
        <translation>Datensatz-Ordner</translation>
    </message>
    <message>
        <source>CSV or run file</source>
        <translation>CSV- oder Lauf-Datei</translation>
    </message>
    <message>
        <source>CSV and run files (*.csv *.yaml *.yml);;All files (*)</source>
        <translation>CSV- und Lauf-Dateien (*.csv *.yaml *.yml);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>CSV files only: the column to predict</source>
        <translation>nur CSV-Dateien: die vorherzusagende Spalte</translation>
    </message>
    <message>
        <source>Target column</source>
        <translation>Zielspalte</translation>
    </message>
    <message>
        <source>a new folder for the shards</source>
        <translation>ein neuer Ordner für die Shards</translation>
    </message>
    <message>
        <source>Where the shard set goes</source>
        <translation>Wohin der Shard-Satz kommt</translation>
    </message>
    <message>
        <source>Output folder</source>
        <translation>Ausgabeordner</translation>
    </message>
    <message>
        <source> MB</source>
        <translation> MB</translation>
    </message>
    <message>
        <source>Shard size</source>
        <translation>Shard-Größe</translation>
    </message>
    <message>
        <source>Pack</source>
        <translation>Packen</translation>
    </message>
    <message>
        <source>Cancel Packing</source>
        <translation>Packen abbrechen</translation>
    </message>
    <message>
        <source>Use in Launch</source>
        <translation>Auf der Seite „Starten“ verwenden</translation>
    </message>
    <message>
        <source>Packing: %1 of %2 examples</source>
        <translation>Packe: %1 von %2 Beispielen</translation>
    </message>
    <message>
        <source>Give a source and an output folder.</source>
        <translation>Geben Sie eine Quelle und einen Ausgabeordner an.</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>Lese %1 …</translation>
    </message>
    <message>
        <source>Cancelled: the partial output was removed.</source>
        <translation>Abgebrochen: Die unvollständige Ausgabe wurde entfernt.</translation>
    </message>
    <message>
        <source>Store decoded pixels (image folders: larger shards, read without decoding)</source>
        <translation>Dekodierte Pixel speichern (Bildordner: größere Shards, ohne Dekodieren gelesen)</translation>
    </message>
    <message>
        <source>Packed %1 examples into %2 shards (%3) in %4.</source>
        <translation>%1 Beispiele in %2 Shards (%3) nach %4 gepackt.</translation>
    </message>
</context>
<context>
    <name>tw::ui::ParallelCoordinates</name>
    <message>
        <source>Nothing to show: the runs have no differing parameters or values.</source>
        <translation>Nichts zu zeigen: Die Runs haben keine abweichenden Parameter oder Werte.</translation>
    </message>
    <message>
        <source> (log)</source>
        <translation> (log.)</translation>
    </message>
</context>
<context>
    <name>tw::ui::ParallelView</name>
    <message>
        <source>Clear selection</source>
        <translation>Auswahl aufheben</translation>
    </message>
    <message>
        <source>Metric value</source>
        <translation>Metrikwert</translation>
    </message>
    <message>
        <source>All %1 runs shown. Drag along an axis to select a range.</source>
        <translation>Alle %1 Runs angezeigt. Ziehen Sie entlang einer Achse, um einen Bereich auszuwählen.</translation>
    </message>
    <message>
        <source>%1 of %2 runs selected</source>
        <translation>%1 von %2 Runs ausgewählt</translation>
    </message>
    <message>
        <source>These runs share every parameter of their data source, so there is nothing to spread them along. Compare runs whose settings differ, or see their curves on Curves.</source>
        <translation>Diese Läufe teilen alle Parameter ihrer Datenquelle, es gibt also nichts, entlang dessen sie sich verteilen. Vergleichen Sie Läufe mit unterschiedlichen Einstellungen oder sehen Sie ihre Kurven unter „Kurven“.</translation>
    </message>
</context>
<context>
    <name>tw::ui::ParamField</name>
    <message>
        <source>Type: %1</source>
        <translation>Typ: %1</translation>
    </message>
    <message>
        <source>One of: %1</source>
        <translation>Eines von: %1</translation>
    </message>
    <message>
        <source>Taken from the incoming shape when not set.</source>
        <translation>Wird aus der eingehenden Form übernommen, wenn nicht gesetzt.</translation>
    </message>
    <message>
        <source>Default: %1</source>
        <translation>Standard: %1</translation>
    </message>
    <message>
        <source>Required.</source>
        <translation>Erforderlich.</translation>
    </message>
    <message>
        <source>Reset to default</source>
        <translation>Auf Standard zurücksetzen</translation>
    </message>
    <message>
        <source>auto (%1)</source>
        <translation>auto (%1)</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>auto</translation>
    </message>
    <message>
        <source>default (%1)</source>
        <translation>Standard (%1)</translation>
    </message>
    <message>
        <source>required</source>
        <translation>erforderlich</translation>
    </message>
    <message>
        <source>expected one or two integers, like 3 or 3, 1</source>
        <translation>erwartet eine oder zwei ganze Zahlen, etwa 3 oder 3, 1</translation>
    </message>
    <message>
        <source>expected integers, like 1, 28, 28</source>
        <translation>erwartet ganze Zahlen, etwa 1, 28, 28</translation>
    </message>
    <message>
        <source>required: there is no default to go back to</source>
        <translation>erforderlich: Es gibt keinen Standardwert, zu dem zurückgekehrt werden kann</translation>
    </message>
</context>
<context>
    <name>tw::ui::ParamsPanel</name>
    <message>
        <source>Search keys and values</source>
        <translation>Schlüssel und Werte durchsuchen</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>%1 keys</source>
        <translation>%1 Schlüssel</translation>
    </message>
    <message>
        <source>%1 of %2 keys</source>
        <translation>%1 von %2 Schlüsseln</translation>
    </message>
</context>
<context>
    <name>tw::ui::PropertyEditor</name>
    <message>
        <source>Select a node to edit its properties.</source>
        <translation>Wählen Sie einen Knoten, um seine Eigenschaften zu bearbeiten.</translation>
    </message>
    <message>
        <source>Unique name of the node; other nodes name it in their inputs.</source>
        <translation>Eindeutiger Name des Knotens; andere Knoten nennen ihn in ihren Eingängen.</translation>
    </message>
    <message>
        <source>Unknown op: no properties to edit.</source>
        <translation>Unbekannte Operation: keine Eigenschaften zu bearbeiten.</translation>
    </message>
    <message>
        <source>Recompute activations in the backward pass</source>
        <translation>Aktivierungen im Rückwärtsdurchlauf neu berechnen</translation>
    </message>
    <message>
        <source>Keep only what enters this node during training and compute the rest again when the gradients are computed: less memory, more time (checkpoint_activations in the model file).</source>
        <translation>Beim Training nur behalten, was in diesen Knoten hineingeht, und den Rest bei der Berechnung der Gradienten erneut berechnen: weniger Speicher, mehr Zeit (checkpoint_activations in der Modelldatei).</translation>
    </message>
    <message>
        <source>Recomputed in the backward pass with %1</source>
        <translation>Im Rückwärtsdurchlauf mit %1 neu berechnet</translation>
    </message>
</context>
<context>
    <name>tw::ui::RangeSpinBox</name>
    <message>
        <source>The value</source>
        <translation>Der Wert</translation>
    </message>
    <message>
        <source>%1: %2 is outside %3; it stays %4</source>
        <translation>%1: %2 liegt außerhalb von %3; es bleibt %4</translation>
    </message>
</context>
<context>
    <name>tw::ui::RunDetailView</name>
    <message>
        <source>Select a run to see its curves.</source>
        <translation>Wählen Sie einen Lauf, um seine Kurven zu sehen.</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>Verlust</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>Training</translation>
    </message>
    <message>
        <source>Validation</source>
        <translation>Validierung</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>Genauigkeit</translation>
    </message>
    <message>
        <source>Smoothing: a debiased exponential moving average over every recorded point</source>
        <translation>Glättung: ein entzerrter exponentieller gleitender Mittelwert über alle aufgezeichneten Punkte</translation>
    </message>
    <message>
        <source>Log scale</source>
        <translation>Logarithmische Skala</translation>
    </message>
    <message>
        <source>Smoothing</source>
        <translation>Glättung</translation>
    </message>
    <message>
        <source>Curves</source>
        <translation>Kurven</translation>
    </message>
    <message>
        <source>System</source>
        <translation>System</translation>
    </message>
    <message>
        <source>Evaluation</source>
        <translation>Auswertung</translation>
    </message>
    <message>
        <source>A logarithmic value axis for the loss and the gradient norm</source>
        <translation>Eine logarithmische Werteachse für Verlust und Gradientennorm</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>Lernrate</translation>
    </message>
    <message>
        <source>Throughput (samples/s, per epoch)</source>
        <translation>Durchsatz (Beispiele/s, je Epoche)</translation>
    </message>
    <message>
        <source>Training samples per second</source>
        <translation>Trainingsbeispiele pro Sekunde</translation>
    </message>
    <message>
        <source>Data wait (share of training time, 0 to 1, per epoch)</source>
        <translation>Datenwartezeit (Anteil der Trainingszeit, 0 bis 1, je Epoche)</translation>
    </message>
    <message>
        <source>Waiting for batches</source>
        <translation>Warten auf Batches</translation>
    </message>
    <message>
        <source>Gradient norm (before clipping)</source>
        <translation>Gradientennorm (vor dem Clipping)</translation>
    </message>
    <message>
        <source>Global L2 norm</source>
        <translation>Globale L2-Norm</translation>
    </message>
    <message>
        <source>Artifacts</source>
        <translation>Artefakte</translation>
    </message>
    <message>
        <source>Layer Norms</source>
        <translation>Schichtnormen</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <source>Curves of the first %1 of %2 selected runs</source>
        <translation>Kurven der ersten %1 von %2 gewählten Läufen</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>%1 · Test</source>
        <translation>%1 · Test</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>Test</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation>Epoche</translation>
    </message>
    <message>
        <source>Wall time</source>
        <translation>Laufzeit</translation>
    </message>
    <message>
        <source>What the curves are drawn against: the optimiser step, the epoch (runs with different batch sizes line up), or the time since each run started</source>
        <translation>Wogegen die Kurven gezeichnet werden: den Optimiererschritt, die Epoche (Läufe mit verschiedenen Batchgrößen liegen übereinander) oder die Zeit seit dem Start jedes Laufs</translation>
    </message>
    <message>
        <source>X axis</source>
        <translation>X-Achse</translation>
    </message>
</context>
<context>
    <name>tw::ui::RunInfoPanel</name>
    <message>
        <source>Status:</source>
        <translation>Status:</translation>
    </message>
    <message>
        <source>Experiment:</source>
        <translation>Experiment:</translation>
    </message>
    <message>
        <source>Started:</source>
        <translation>Gestartet:</translation>
    </message>
    <message>
        <source>Ended:</source>
        <translation>Beendet:</translation>
    </message>
    <message>
        <source>Config hash:</source>
        <translation>Konfigurations-Hash:</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>Seed:</translation>
    </message>
    <message>
        <source>Data:</source>
        <translation>Daten:</translation>
    </message>
    <message>
        <source>Host:</source>
        <translation>Rechner:</translation>
    </message>
    <message>
        <source>Hardware:</source>
        <translation>Hardware:</translation>
    </message>
    <message>
        <source>Libraries:</source>
        <translation>Bibliotheken:</translation>
    </message>
    <message>
        <source>No run selected</source>
        <translation>Kein Lauf ausgewählt</translation>
    </message>
    <message>
        <source>Started from:</source>
        <translation>Gestartet aus:</translation>
    </message>
    <message>
        <source>the seed</source>
        <translation>dem Seed</translation>
    </message>
    <message>
        <source>%1 (%2 taken)</source>
        <translation>%1 (%2 übernommen)</translation>
    </message>
</context>
<context>
    <name>tw::ui::RunLauncher</name>
    <message>
        <source>torchwright launch exited with code %1</source>
        <translation>torchwright launch endete mit Code %1</translation>
    </message>
</context>
<context>
    <name>tw::ui::RunStatus</name>
    <message>
        <source>Created</source>
        <translation>Angelegt</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>Läuft</translation>
    </message>
    <message>
        <source>Finished</source>
        <translation>Abgeschlossen</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>Abgebrochen</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 h %2 min</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
</context>
<context>
    <name>tw::ui::RunsPage</name>
    <message>
        <source>Stop Run</source>
        <translation>Lauf anhalten</translation>
    </message>
    <message>
        <source>Ask the selected run to stop after its next step; it keeps a checkpoint and can be resumed (Ctrl+.)</source>
        <translation>Den gewählten Lauf nach seinem nächsten Schritt anhalten; er behält einen Checkpoint und kann fortgesetzt werden (Strg+.)</translation>
    </message>
    <message>
        <source>Could not ask the run to stop: %1</source>
        <translation>Der Lauf konnte nicht angehalten werden: %1</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Vergleichen</translation>
    </message>
    <message>
        <source>Overlay the curves and configurations of the selected runs (Ctrl+Shift+C)</source>
        <translation>Kurven und Konfigurationen der gewählten Läufe übereinanderlegen (Strg+Umschalt+C)</translation>
    </message>
    <message>
        <source>All statuses</source>
        <translation>Alle Zustände</translation>
    </message>
    <message>
        <source>val. accuracy ≥ </source>
        <translation>Val.-Genauigkeit ≥ </translation>
    </message>
    <message>
        <source>any val. accuracy</source>
        <translation>jede Val.-Genauigkeit</translation>
    </message>
    <message>
        <source>Checkpoint Now</source>
        <translation>Jetzt sichern</translation>
    </message>
    <message>
        <source>Ask the selected run to write a checkpoint after its next step and train on</source>
        <translation>Den gewählten Lauf nach seinem nächsten Schritt einen Checkpoint schreiben und weitertrainieren lassen</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>Delete the selected runs with their checkpoints and artifacts (not running ones)</source>
        <translation>Die gewählten Läufe mit ihren Checkpoints und Artefakten löschen (keine laufenden)</translation>
    </message>
    <message>
        <source>Delete Runs</source>
        <translation>Läufe löschen</translation>
    </message>
    <message>
        <source>Delete %1 run(s) with their checkpoints and artifacts? This cannot be undone.</source>
        <translation>%1 Lauf/Läufe mit Checkpoints und Artefakten löschen? Das kann nicht rückgängig gemacht werden.</translation>
    </message>
    <message>
        <source>Filter: words, #tag, val/accuracy&gt;0.9, lr&lt;=0.01</source>
        <translation>Filter: Wörter, #Tag, val/accuracy&gt;0.9, lr&lt;=0.01</translation>
    </message>
    <message>
        <source>Words match the name, experiment, tags and note; #tag (or tag:name) requires a tag; key&lt;value, key&gt;=value, key=value and key!=value compare a metric&apos;s latest value or a parameter (by full key, or its last part when unique). All terms must hold.</source>
        <translation>Wörter passen auf Name, Experiment, Tags und Notiz; #tag (oder tag:name) verlangt einen Tag; key&lt;wert, key&gt;=wert, key=wert und key!=wert vergleichen den letzten Wert einer Metrik oder einen Parameter (mit vollem Schlüssel oder, wenn eindeutig, dessen letztem Teil). Alle Bedingungen müssen gelten.</translation>
    </message>
    <message>
        <source>All tags</source>
        <translation>Alle Tags</translation>
    </message>
    <message>
        <source>Show archived</source>
        <translation>Archivierte zeigen</translation>
    </message>
    <message>
        <source>Add Tag...</source>
        <translation>Tag hinzufügen...</translation>
    </message>
    <message>
        <source>Add Tag</source>
        <translation>Tag hinzufügen</translation>
    </message>
    <message>
        <source>Tag for the selected runs:</source>
        <translation>Tag für die ausgewählten Runs:</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Notiz</translation>
    </message>
    <message>
        <source>Note on %1:</source>
        <translation>Notiz zu %1:</translation>
    </message>
    <message>
        <source>Remove Tag</source>
        <translation>Tag entfernen</translation>
    </message>
    <message>
        <source>Edit Note...</source>
        <translation>Notiz bearbeiten...</translation>
    </message>
    <message>
        <source>Archive</source>
        <translation>Archivieren</translation>
    </message>
    <message>
        <source>Unarchive</source>
        <translation>Aus dem Archiv holen</translation>
    </message>
    <message>
        <source>Metrics</source>
        <translation>Metriken</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <source>Export...</source>
        <translation>Exportieren …</translation>
    </message>
    <message>
        <source>Clone into Launch</source>
        <translation>In „Starten“ übernehmen</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Fortsetzen</translation>
    </message>
    <message>
        <source>Reproduce</source>
        <translation>Reproduzieren</translation>
    </message>
    <message>
        <source>Train the run again from its recorded configuration and report whether its metrics match</source>
        <translation>Den Lauf aus seiner aufgezeichneten Konfiguration erneut trainieren und melden, ob seine Metriken übereinstimmen</translation>
    </message>
    <message>
        <source>Export Report...</source>
        <translation>Bericht exportieren …</translation>
    </message>
    <message>
        <source>One HTML page about the selected runs, to open in any browser</source>
        <translation>Eine HTML-Seite über die gewählten Läufe, in jedem Browser zu öffnen</translation>
    </message>
    <message>
        <source>select the runs to report on the Runs page first</source>
        <translation>wählen Sie zuerst auf der Seite „Läufe“ die Läufe für den Bericht</translation>
    </message>
    <message>
        <source>Export Report</source>
        <translation>Bericht exportieren</translation>
    </message>
    <message>
        <source>HTML pages (*.html)</source>
        <translation>HTML-Seiten (*.html)</translation>
    </message>
</context>
<context>
    <name>tw::ui::RunsTableModel</name>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Experiment</source>
        <translation>Experiment</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>Gestartet</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <source>Val. accuracy</source>
        <translation>Val.-Genauigkeit</translation>
    </message>
    <message>
        <source>Val. loss</source>
        <translation>Val.-Verlust</translation>
    </message>
    <message>
        <source>Test accuracy</source>
        <translation>Test-Genauigkeit</translation>
    </message>
    <message>
        <source>Latest value of the metric %1</source>
        <translation>Letzter Wert der Metrik %1</translation>
    </message>
    <message>
        <source>Parameter %1</source>
        <translation>Parameter %1</translation>
    </message>
    <message>
        <source>Double-click a note to edit it</source>
        <translation>Doppelklicken Sie auf eine Notiz, um sie zu bearbeiten</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>Tags</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Notiz</translation>
    </message>
    <message>
        <source>%1 = %2 at step %3</source>
        <translation>%1 = %2 bei Schritt %3</translation>
    </message>
</context>
<context>
    <name>tw::ui::ScatterChart</name>
    <message>
        <source>… and %1 more</source>
        <translation>… und %1 weitere</translation>
    </message>
    <message>
        <source>Trials</source>
        <translation>Versuche</translation>
    </message>
</context>
<context>
    <name>tw::ui::ScatterView</name>
    <message>
        <source>Parameter</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>Metrik</translation>
    </message>
    <message>
        <source>Reading every point of %1…</source>
        <translation>Alle Punkte von %1 werden gelesen…</translation>
    </message>
    <message>
        <source>Left out for want of a value: %1 runs</source>
        <translation>Mangels Wert ausgelassen: %1 Runs</translation>
    </message>
    <message>
        <source>These runs recorded no parameters of their data source to place them along. Compare runs recorded by torchwright train or a sweep.</source>
        <translation>Diese Läufe haben keine Parameter ihrer Datenquelle aufgezeichnet, entlang derer sie sich anordnen ließen. Vergleichen Sie Läufe, die mit torchwright train oder einem Suchlauf aufgezeichnet wurden.</translation>
    </message>
    <message>
        <source>%1 = %2, %3 = %4</source>
        <translation>%1 = %2, %3 = %4</translation>
    </message>
</context>
<context>
    <name>tw::ui::ShortcutList</name>
    <message>
        <source>Window</source>
        <translation>Fenster</translation>
    </message>
</context>
<context>
    <name>tw::ui::ShortcutsDialog</name>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>Wo</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
</context>
<context>
    <name>tw::ui::SpaceTable</name>
    <message>
        <source>Parameter</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Low</source>
        <translation>Untergrenze</translation>
    </message>
    <message>
        <source>High</source>
        <translation>Obergrenze</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>Log</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>Choices</source>
        <translation>Auswahl</translation>
    </message>
    <message>
        <source>When</source>
        <translation>Wenn</translation>
    </message>
    <message>
        <source>Allowed</source>
        <translation>Erlaubt</translation>
    </message>
    <message>
        <source>Categorical values, separated by commas</source>
        <translation>Kategoriale Werte, durch Kommas getrennt</translation>
    </message>
    <message>
        <source>Search this parameter only when others take given values, e.g. train.optimizer=sgd</source>
        <translation>Diesen Parameter nur durchsuchen, wenn andere bestimmte Werte annehmen, z. B. train.optimizer=sgd</translation>
    </message>
    <message>
        <source>not offered by the current model</source>
        <translation>vom aktuellen Modell nicht angeboten</translation>
    </message>
    <message>
        <source>row %1 (%2): </source>
        <translation>Zeile %1 (%2): </translation>
    </message>
    <message>
        <source>row %1: choose a parameter</source>
        <translation>Zeile %1: Wählen Sie einen Parameter</translation>
    </message>
    <message>
        <source>list the choices</source>
        <translation>Geben Sie die Auswahlwerte an</translation>
    </message>
    <message>
        <source>low and high must be numbers</source>
        <translation>Unter- und Obergrenze müssen Zahlen sein</translation>
    </message>
    <message>
        <source>the step must be a number</source>
        <translation>Die Schrittweite muss eine Zahl sein</translation>
    </message>
    <message>
        <source>the range must lie within %1</source>
        <translation>Der Bereich muss innerhalb von %1 liegen</translation>
    </message>
    <message>
        <source>write conditions as key=value[,value]; key=value</source>
        <translation>Bedingungen als Schlüssel=Wert[,Wert]; Schlüssel=Wert schreiben</translation>
    </message>
</context>
<context>
    <name>tw::ui::StoreSettingsDialog</name>
    <message>
        <source>Tracking Store</source>
        <translation>Tracking-Speicher</translation>
    </message>
    <message>
        <source>empty: the workspace&apos;s own tracking.db</source>
        <translation>leer: die eigene tracking.db des Arbeitsbereichs</translation>
    </message>
    <message>
        <source>Runs of this workspace are recorded in its own tracking.db, or in a PostgreSQL database that several machines share, given as postgresql://user@host:port/database. The password goes in ~/.pgpass or PGPASSWORD, never here: the setting is stored in %1.</source>
        <translation>Die Läufe dieses Arbeitsbereichs werden in seiner eigenen tracking.db aufgezeichnet oder in einer PostgreSQL-Datenbank, die mehrere Rechner teilen, angegeben als postgresql://benutzer@host:port/datenbank. Das Passwort gehört in ~/.pgpass oder PGPASSWORD, nie hierher: die Einstellung wird in %1 gespeichert.</translation>
    </message>
    <message>
        <source>Store:</source>
        <translation>Speicher:</translation>
    </message>
    <message>
        <source>TW_STORE is set (%1): it wins over this setting until it is unset.</source>
        <translation>TW_STORE ist gesetzt (%1): es hat Vorrang vor dieser Einstellung, bis es entfernt wird.</translation>
    </message>
</context>
<context>
    <name>tw::ui::StudyPhase</name>
    <message>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>beendet</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>angehalten</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>ruht</translation>
    </message>
    <message>
        <source>Stopping: the running trials end and no new one starts.</source>
        <translation>Wird angehalten: Die laufenden Versuche enden, und kein neuer beginnt.</translation>
    </message>
    <message>
        <source>A sweep in the background runs the study&apos;s trials.</source>
        <translation>Ein Suchlauf im Hintergrund führt die Versuche der Studie aus.</translation>
    </message>
    <message>
        <source>Finished: its budget of %1 trials is spent; there is nothing left to resume.</source>
        <translation>Beendet: Ihr Budget von %1 Versuchen ist verbraucht; es bleibt nichts fortzusetzen.</translation>
    </message>
    <message>
        <source>Stopped after %1 of %2 trials; Resume runs the rest.</source>
        <translation>Angehalten nach %1 von %2 Versuchen; Fortsetzen führt den Rest aus.</translation>
    </message>
    <message>
        <source>No sweep drives this study; its trials come from `torchwright study ask` and `tell`.</source>
        <translation>Kein Suchlauf treibt diese Studie; ihre Versuche kommen aus `torchwright study ask` und `tell`.</translation>
    </message>
    <message>
        <source>Its sweep stopped answering (no heartbeat for %1 s): it was killed or its machine stopped. Resume continues the study.</source>
        <translation>Ihr Suchlauf antwortet nicht mehr (seit %1 s kein Lebenszeichen): Er wurde beendet, oder sein Rechner ist ausgefallen. Fortsetzen setzt die Studie fort.</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>unterbrochen</translation>
    </message>
    <message>
        <source>Finished: its time budget of %1 minutes is spent; `sweep --resume --set budget.minutes=N` gives it more.</source>
        <translation>Beendet: sein Zeitbudget von %1 Minuten ist verbraucht; `sweep --resume --set budget.minutes=N` gibt ihm mehr.</translation>
    </message>
    <message>
        <source>Stopped before its budget was spent; Resume runs the rest of it.</source>
        <translation>Angehalten, bevor sein Budget verbraucht war; Fortsetzen führt den Rest aus.</translation>
    </message>
</context>
<context>
    <name>tw::ui::StudyPlots</name>
    <message>
        <source>Learning curves</source>
        <translation>Lernkurven</translation>
    </message>
    <message>
        <source>History</source>
        <translation>Verlauf</translation>
    </message>
    <message>
        <source>Learning Curves</source>
        <translation>Lernkurven</translation>
    </message>
    <message>
        <source>Parallel Coordinates</source>
        <translation>Parallele Koordinaten</translation>
    </message>
    <message>
        <source>Parameter</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <source>Slice</source>
        <translation>Schnitt</translation>
    </message>
    <message>
        <source>x</source>
        <translation>x</translation>
    </message>
    <message>
        <source>y</source>
        <translation>y</translation>
    </message>
    <message>
        <source>Contour</source>
        <translation>Kontur</translation>
    </message>
    <message>
        <source>Importance</source>
        <translation>Wichtigkeit</translation>
    </message>
    <message>
        <source>Pareto Front</source>
        <translation>Pareto-Front</translation>
    </message>
    <message>
        <source>Objective</source>
        <translation>Zielgröße</translation>
    </message>
    <message>
        <source>Trial %1</source>
        <translation>Versuch %1</translation>
    </message>
    <message>
        <source>Trial</source>
        <translation>Versuch</translation>
    </message>
    <message>
        <source>Best so far</source>
        <translation>Bisher bester</translation>
    </message>
    <message>
        <source>A contour plot needs two parameters.</source>
        <translation>Ein Konturdiagramm braucht zwei Parameter.</translation>
    </message>
    <message>
        <source>Not enough finished trials to estimate the objective over a pair yet.</source>
        <translation>Noch zu wenige abgeschlossene Versuche, um die Zielgröße über ein Paar zu schätzen.</translation>
    </message>
    <message>
        <source>Importance appears once enough trials have finished.</source>
        <translation>Die Wichtigkeit erscheint, sobald genug Versuche abgeschlossen sind.</translation>
    </message>
    <message>
        <source>Pareto front</source>
        <translation>Pareto-Front</translation>
    </message>
    <message>
        <source>Trial %1 (%2)</source>
        <translation>Versuch %1 (%2)</translation>
    </message>
    <message>
        <source>pruned (faded)</source>
        <translation>abgebrochen (blass)</translation>
    </message>
    <message>
        <source>failed (faded)</source>
        <translation>fehlgeschlagen (blass)</translation>
    </message>
    <message>
        <source>Each trial&apos;s curve of %1.</source>
        <translation>Die Kurve von %1 für jeden Versuch.</translation>
    </message>
    <message>
        <source>Best trials by %1:</source>
        <translation>Beste Versuche nach %1:</translation>
    </message>
    <message>
        <source>Other trials in their own colours; point at a curve to name it.</source>
        <translation>Andere Versuche in ihren eigenen Farben; zeigen Sie auf eine Kurve, um ihren Namen zu sehen.</translation>
    </message>
</context>
<context>
    <name>tw::ui::StudyView</name>
    <message>
        <source>Stop</source>
        <translation>Anhalten</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Fortsetzen</translation>
    </message>
    <message>
        <source>Open in Runs</source>
        <translation>In Läufen öffnen</translation>
    </message>
    <message>
        <source>Launch This Configuration</source>
        <translation>Diese Konfiguration starten</translation>
    </message>
    <message>
        <source>Study</source>
        <translation>Studie</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Trials</source>
        <translation>Versuche</translation>
    </message>
    <message>
        <source>Best</source>
        <translation>Bester Wert</translation>
    </message>
    <message>
        <source>Best Trial</source>
        <translation>Bester Versuch</translation>
    </message>
    <message>
        <source>Ask the sweep to start no new trial and stop the running ones</source>
        <translation>Den Suchlauf bitten, keinen neuen Versuch zu beginnen und die laufenden zu beenden</translation>
    </message>
    <message>
        <source>Continue the study in the background until its budget is spent</source>
        <translation>Die Studie im Hintergrund fortsetzen, bis ihr Budget aufgebraucht ist</translation>
    </message>
    <message>
        <source>Show the selected trial&apos;s run on the Runs page</source>
        <translation>Den Lauf des gewählten Versuchs auf der Seite „Läufe“ zeigen</translation>
    </message>
    <message>
        <source>Put the selected trial&apos;s parameters on the Launch page</source>
        <translation>Die Parameter des gewählten Versuchs auf die Startseite übernehmen</translation>
    </message>
    <message>
        <source>%1 complete, %2 pruned, %3 failed, %4 running</source>
        <translation>%1 abgeschlossen, %2 gestutzt, %3 fehlgeschlagen, %4 laufend</translation>
    </message>
    <message>
        <source>Trial</source>
        <translation>Versuch</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <source>Pruned At Epoch</source>
        <translation>Gestutzt in Epoche</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <source>Export Best Trial...</source>
        <translation>Besten Versuch exportieren …</translation>
    </message>
    <message>
        <source>Export the model of the study&apos;s best trial to TorchScript or ONNX</source>
        <translation>Das Modell des besten Versuchs der Studie nach TorchScript oder ONNX exportieren</translation>
    </message>
    <message>
        <source>1 trial</source>
        <translation>1 Versuch</translation>
    </message>
    <message>
        <source>%1 trials</source>
        <translation>%1 Versuche</translation>
    </message>
</context>
<context>
    <name>tw::ui::SweepForm</name>
    <message>
        <source>Second objective</source>
        <translation>Zweite Zielgröße</translation>
    </message>
    <message>
        <source>Auto</source>
        <translation>Automatisch</translation>
    </message>
    <message>
        <source>Start Sweep</source>
        <translation>Suchlauf starten</translation>
    </message>
    <message>
        <source>A name for the study (default: the date and time)</source>
        <translation>Ein Name für die Studie (Standard: Datum und Uhrzeit)</translation>
    </message>
    <message>
        <source>Add Parameter</source>
        <translation>Parameter hinzufügen</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>Search another run-file key or model field</source>
        <translation>Einen weiteren Laufdatei-Schlüssel oder ein Modellfeld durchsuchen</translation>
    </message>
    <message>
        <source>maximize</source>
        <translation>maximieren</translation>
    </message>
    <message>
        <source>minimize</source>
        <translation>minimieren</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>ohne Grenze</translation>
    </message>
    <message>
        <source> min</source>
        <translation> min</translation>
    </message>
    <message>
        <source>Let the sweep choose how many trials run at once from the model and the machine</source>
        <translation>Den Suchlauf anhand von Modell und Rechner wählen lassen, wie viele Versuche gleichzeitig laufen</translation>
    </message>
    <message>
        <source>Search space</source>
        <translation>Suchraum</translation>
    </message>
    <message>
        <source>Study</source>
        <translation>Studie</translation>
    </message>
    <message>
        <source>Objective</source>
        <translation>Zielgröße</translation>
    </message>
    <message>
        <source>seed </source>
        <translation>Seed </translation>
    </message>
    <message>
        <source>Sampler</source>
        <translation>Sampler</translation>
    </message>
    <message>
        <source>Pruner</source>
        <translation>Pruner</translation>
    </message>
    <message>
        <source> trials</source>
        <translation> Versuche</translation>
    </message>
    <message>
        <source>Budget</source>
        <translation>Budget</translation>
    </message>
    <message>
        <source>Trials at once</source>
        <translation>Gleichzeitige Versuche</translation>
    </message>
    <message>
        <source>Write the sweep file into the workspace&apos;s studies folder and run it in the background</source>
        <translation>Die Suchlaufdatei in den Ordner „studies“ des Arbeitsbereichs schreiben und im Hintergrund ausführen</translation>
    </message>
    <message>
        <source>Add at least one parameter to search.</source>
        <translation>Fügen Sie mindestens einen zu durchsuchenden Parameter hinzu.</translation>
    </message>
    <message>
        <source>The sampler %1 handles one objective; choose one that handles two.</source>
        <translation>Der Sampler %1 kann nur eine Zielgröße; wählen Sie einen, der zwei kann.</translation>
    </message>
    <message>
        <source>Give the sweep a budget: a number of trials, minutes, or both.</source>
        <translation>Geben Sie dem Suchlauf ein Budget: eine Anzahl Versuche, Minuten oder beides.</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>%1 exists already; give the study another name.</source>
        <translation>%1 gibt es schon; geben Sie der Studie einen anderen Namen.</translation>
    </message>
    <message>
        <source>Cannot write the study file studies/%1.sweep.yaml: it %2.</source>
        <translation>Die Studiendatei studies/%1.sweep.yaml kann nicht geschrieben werden: %2.</translation>
    </message>
</context>
<context>
    <name>tw::ui::SweepLauncher</name>
    <message>
        <source>torchwright sweep exited with code %1</source>
        <translation>torchwright sweep endete mit Code %1</translation>
    </message>
</context>
<context>
    <name>tw::ui::SweepsPage</name>
    <message>
        <source>New Sweep</source>
        <translation>Neuer Suchlauf</translation>
    </message>
    <message>
        <source>Studies</source>
        <translation>Studien</translation>
    </message>
    <message>
        <source>The sweep runs in the background.</source>
        <translation>Der Suchlauf läuft im Hintergrund.</translation>
    </message>
    <message>
        <source>The sweep did not start: %1</source>
        <translation>Der Suchlauf ist nicht gestartet: %1</translation>
    </message>
    <message>
        <source>Resuming %1…</source>
        <translation>%1 wird fortgesetzt …</translation>
    </message>
    <message>
        <source>Open a workspace first.</source>
        <translation>Öffnen Sie zuerst einen Arbeitsbereich.</translation>
    </message>
    <message>
        <source>The model has problems; fix them on the Design page first.</source>
        <translation>Das Modell hat Probleme; beheben Sie sie zuerst auf der Entwurfsseite.</translation>
    </message>
    <message>
        <source>Not started: the Launch page&apos;s run has problems: %1</source>
        <translation>Nicht gestartet: Der Lauf der Startseite hat Probleme: %1</translation>
    </message>
    <message>
        <source>Not started: %1</source>
        <translation>Nicht gestartet: %1</translation>
    </message>
    <message>
        <source>Asked the sweep to stop; running trials end and no new one starts.</source>
        <translation>Der Suchlauf wurde gebeten anzuhalten; laufende Versuche enden, und kein neuer beginnt.</translation>
    </message>
    <message>
        <source>Cannot ask the sweep to stop: %1</source>
        <translation>Der Suchlauf kann nicht zum Anhalten aufgefordert werden: %1</translation>
    </message>
    <message>
        <source>Checking the run…</source>
        <translation>Der Lauf wird geprüft …</translation>
    </message>
    <message>
        <source>The sweep of study %1 ended. %2</source>
        <translation>Der Suchlauf der Studie %1 ist zu Ende. %2</translation>
    </message>
    <message>
        <source>Starting the sweep %1: %2 on %3…</source>
        <translation>Der Suchlauf %1 wird gestartet: %2 auf %3 …</translation>
    </message>
</context>
<context>
    <name>tw::ui::SystemPanel</name>
    <message>
        <source>Rank</source>
        <translation>Rang</translation>
    </message>
    <message>
        <source>CPU %</source>
        <translation>CPU %</translation>
    </message>
    <message>
        <source>Memory MB</source>
        <translation>Speicher MB</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>Threads</translation>
    </message>
    <message>
        <source>GPU %</source>
        <translation>GPU %</translation>
    </message>
    <message>
        <source>GPU memory MB</source>
        <translation>GPU-Speicher MB</translation>
    </message>
    <message>
        <source>GPU °C</source>
        <translation>GPU °C</translation>
    </message>
    <message>
        <source>GPU W</source>
        <translation>GPU W</translation>
    </message>
    <message>
        <source>Log (last lines)</source>
        <translation>Protokoll (letzte Zeilen)</translation>
    </message>
    <message>
        <source>Epoch %1 of %2</source>
        <translation>Epoche %1 von %2</translation>
    </message>
    <message>
        <source>Elapsed %1</source>
        <translation>Vergangen %1</translation>
    </message>
    <message>
        <source>about %1 left</source>
        <translation>noch etwa %1</translation>
    </message>
    <message>
        <source>No GPU readings recorded for this run.</source>
        <translation>Für diesen Lauf wurden keine GPU-Werte aufgezeichnet.</translation>
    </message>
    <message>
        <source>No NVIDIA GPU: %1</source>
        <translation>Keine NVIDIA-GPU: %1</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>Wird geladen …</translation>
    </message>
    <message>
        <source>Could not read the run&apos;s system metrics: %1</source>
        <translation>Die Systemmetriken des Laufs konnten nicht gelesen werden: %1</translation>
    </message>
</context>
<context>
    <name>tw::ui::TrialState</name>
    <message>
        <source>Waiting</source>
        <translation>Wartet</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>Läuft</translation>
    </message>
    <message>
        <source>Complete</source>
        <translation>Abgeschlossen</translation>
    </message>
    <message>
        <source>Pruned</source>
        <translation>Abgebrochen</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
</context>
<context>
    <name>tw::ui::UserGuideDialog</name>
    <message>
        <source>Torchwright Studio User Guide</source>
        <translation>Torchwright Studio – Benutzerhandbuch</translation>
    </message>
    <message>
        <source>The guide is missing from this build; see README.md in Torchwright&apos;s sources.</source>
        <translation>Das Handbuch fehlt in diesem Build; siehe README.md in den Quellen von Torchwright.</translation>
    </message>
    <message>
        <source>en</source>
        <comment>the language code of the user guide for this translation (docs/user_guide_&lt;code&gt;.md)</comment>
        <translation>de</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
</context>
<context>
    <name>tw::ui::WorkspaceSession</name>
    <message>
        <source>No update from the tracking database for %1 s: a process may hold a lock on it.</source>
        <translation>Seit %1 s keine Aktualisierung aus der Tracking-Datenbank: Ein Prozess hält sie möglicherweise gesperrt.</translation>
    </message>
</context>
<context>
    <name>tw::ui::YamlView</name>
    <message>
        <source>Line %1, column %2: %3</source>
        <translation>Zeile %1, Spalte %2: %3</translation>
    </message>
    <message>
        <source>Line %1: %2</source>
        <translation>Zeile %1: %2</translation>
    </message>
</context>
</TS>
