// The resolve hook behind static-names.mjs: "./name.js" imported by a web module is the file of that name in any
// of the web folders, as WebResources serves them (file names are one namespace there); the tests import the same
// files as "sprout-web/name.js".
import { readdirSync, statSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

const web = fileURLToPath(new URL("../../Sources/SproutServer/Web/", import.meta.url));
const files = new Map();
for (const service of readdirSync(web)) {
  const servicePath = web + service;
  if (!statSync(servicePath).isDirectory()) continue;
  for (const folder of readdirSync(servicePath)) {
    const folderPath = `${servicePath}/${folder}`;
    if (!statSync(folderPath).isDirectory()) continue;
    for (const name of readdirSync(folderPath)) {
      if (name.endsWith(".js")) files.set(name, pathToFileURL(`${folderPath}/${name}`).href);
    }
  }
}

export async function resolve(specifier, context, nextResolve) {
  const parent = context.parentURL?.startsWith("file:") ? fileURLToPath(context.parentURL) : "";
  const name = specifier.startsWith("sprout-web/") ? specifier.slice("sprout-web/".length)
    : specifier.startsWith("./") && parent.startsWith(web) ? specifier.slice(2) : null;
  if (name !== null) {
    if (!files.has(name)) throw new Error(`no web module named ${name} (imported by ${context.parentURL})`);
    return nextResolve(files.get(name), context);
  }
  return nextResolve(specifier, context);
}
