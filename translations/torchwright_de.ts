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
</context>
<context>
    <name>tw::ui::ComparePage</name>
    <message>
        <source>Only differences</source>
        <translation>Nur Unterschiede</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>Metrik</translation>
    </message>
    <message>
        <source>Select two or more runs on the Runs page and press Compare.</source>
        <translation>Wählen Sie auf der Seite „Läufe“ zwei oder mehr Läufe und drücken Sie „Vergleichen“.</translation>
    </message>
    <message>
        <source>Loading %1 runs…</source>
        <translation>%1 Läufe werden geladen …</translation>
    </message>
    <message>
        <source>Cannot read the runs: %1</source>
        <translation>Die Läufe können nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Parameter</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <source>%1 runs, %2 of %3 parameters differ</source>
        <translation>%1 Läufe, %2 von %3 Parametern unterscheiden sich</translation>
    </message>
</context>
<context>
    <name>tw::ui::DataPreview</name>
    <message>
        <source>Reading %1…</source>
        <translation>%1 wird gelesen …</translation>
    </message>
    <message>
        <source>No preview for %1 (tables and synthetic sets are read when the run starts).</source>
        <translation>Keine Vorschau für %1 (Tabellen und synthetische Datensätze werden beim Start des Laufs gelesen).</translation>
    </message>
    <message>
        <source>train %1 · validation %2 · test %3</source>
        <translation>Training %1 · Validierung %2 · Test %3</translation>
    </message>
    <message>
        <source>Examples per class</source>
        <translation>Beispiele je Klasse</translation>
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
        <source>Cannot rename %1 to %2: the name is empty, has spaces or is taken.</source>
        <translation>%1 kann nicht in %2 umbenannt werden: Der Name ist leer, enthält Leerzeichen oder ist vergeben.</translation>
    </message>
    <message>
        <source>New from template</source>
        <translation>Neu aus Vorlage</translation>
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
</context>
<context>
    <name>tw::ui::LaunchPage</name>
    <message>
        <source>Launch</source>
        <translation>Starten</translation>
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
        <source>Schedule</source>
        <translation>Zeitplan</translation>
    </message>
    <message>
        <source>Epochs</source>
        <translation>Epochen</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>Genauigkeit</translation>
    </message>
    <message>
        <source>Resources and tracking</source>
        <translation>Ressourcen und Aufzeichnung</translation>
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
        <source>Checkpoint every N steps</source>
        <translation>Checkpoint alle N Schritte</translation>
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
</context>
<context>
    <name>tw::ui::MetricChart</name>
    <message>
        <source>Step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>%1 · step %2: %3</source>
        <translation>%1 · Schritt %2: %3</translation>
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
</context>
<context>
    <name>tw::ui::RunLauncher</name>
    <message>
        <source>Cannot start %1: %2</source>
        <translation>%1 kann nicht gestartet werden: %2</translation>
    </message>
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
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
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
        <source>Filter by name or experiment</source>
        <translation>Nach Name oder Experiment filtern</translation>
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
</context>
<context>
    <name>tw::ui::RunsTableModel</name>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
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
</context>
</TS>
