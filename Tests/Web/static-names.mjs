// Loaded with `node --import` before the tests: the page modules import each other as the server serves them,
// from one flat folder (`/static/site-korean.js`), while the sources sit in a folder per service
// (Sources/SproutServer/Web/Site/site/site-korean.js). This resolves "./name.js" to wherever that file is.
import { register } from "node:module";

register("./static-resolve.mjs", import.meta.url);
