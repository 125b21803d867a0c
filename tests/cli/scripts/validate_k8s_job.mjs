// Validates a Kubernetes Job (JSON, the file named first) against the Kubernetes schemas of the
// npm package kubernetes-models (installed by packaging/install-test-tools.sh into the folder named
// second). Prints "valid", or "invalid: <the schema's complaints>" and exits 1.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [file, modules] = process.argv.slice(2);
const { Job } = await import(pathToFileURL(`${modules}/node_modules/kubernetes-models/batch/v1/Job.js`).href);
const manifest = JSON.parse(readFileSync(file, "utf8"));
if (manifest.apiVersion !== "batch/v1" || manifest.kind !== "Job") {
  console.log(`invalid: apiVersion/kind ${manifest.apiVersion}/${manifest.kind}, expected batch/v1 Job`);
  process.exit(1);
}
try {
  new Job(manifest).validate();
  console.log("valid");
} catch (e) {
  console.log(`invalid: ${e.message}`);
  process.exit(1);
}
