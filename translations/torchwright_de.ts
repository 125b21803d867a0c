<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
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
    </context>
    <context>
        <name>tw::ui::MetricChart</name>
        <message>
            <source>Step</source>
            <translation>Schritt</translation>
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
</TS>
