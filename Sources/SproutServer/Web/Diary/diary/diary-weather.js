// Sprout web, Diary: the weather of an entry, its icon drawn here as SVG (nothing is loaded from elsewhere).

const SVG = "http://www.w3.org/2000/svg";

// ---- Weather icons, drawn: one per OpenWeather icon group, day and night for 01 and 02 ------------------

function node(tag, attributes, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  element.append(...children);
  return element;
}

const CLOUD = "M36 20h-2.52A16 16 0 1 0 18 40h18a10 10 0 0 0 0-20z";
const MOON = "M42 25.58A18 18 0 1 1 22.42 6 14 14 0 0 0 42 25.58z";

function sun(cx, cy, r) {
  const rays = [];
  for (let i = 0; i < 8; i++) {
    const angle = (i * Math.PI) / 4;
    const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
    rays.push(node("line", {
      class: "wx-ray", x1: cx + cos * (r + 3), y1: cy + sin * (r + 3), x2: cx + cos * (r + 6.5), y2: cy + sin * (r + 6.5),
    }));
  }
  return node("g", {}, node("circle", { class: "wx-sun", cx, cy, r }), ...rays);
}

const moon = (transform) => node("path", { class: "wx-moon", d: MOON, transform });
const cloud = (transform, dark = false) => node("path", { class: dark ? "wx-cloud wx-cloud-dark" : "wx-cloud", d: CLOUD, transform });
const lines = (className, points) => points.map(([x1, y1, x2, y2]) => node("line", { class: className, x1, y1, x2, y2 }));
const BEHIND_CLOUD = "translate(9 11) scale(.78)";
const UNDER_RAIN = "translate(4 -3) scale(.84)";

function weatherShapes(icon) {
  const group = icon.slice(0, 2);
  const night = icon.endsWith("n");
  switch (group) {
    case "01":
      return night ? [moon("translate(3 3) scale(.88)")] : [sun(24, 24, 9)];
    case "02":
      return [night ? moon("translate(1 0) scale(.6)") : sun(16, 16, 6.5), cloud(BEHIND_CLOUD)];
    case "03":
      return [cloud("translate(2 1) scale(.92)")];
    case "04":
      return [cloud("translate(16 2) scale(.62)", true), cloud("translate(0 9) scale(.8)")];
    case "09":
      return [cloud(UNDER_RAIN, true), ...lines("wx-rain", [[15, 37, 12, 44], [23, 37, 20, 44], [31, 37, 28, 44]])];
    case "10":
      return [night ? moon("translate(23 -3) scale(.55)") : sun(37, 10, 5.5), cloud(UNDER_RAIN),
        ...lines("wx-rain", [[17, 37, 17, 44], [25, 39, 25, 46], [33, 37, 33, 44]])];
    case "11":
      return [cloud(UNDER_RAIN, true), node("path", { class: "wx-bolt", d: "M25 28l-7 10h6l-3 9 10-12h-6l3-7z" })];
    case "13": {
      const flakes = [[14, 40], [24, 43], [34, 40]].flatMap(([x, y]) => lines("wx-snow", [
        [x - 3, y, x + 3, y], [x - 1.5, y - 2.6, x + 1.5, y + 2.6], [x - 1.5, y + 2.6, x + 1.5, y - 2.6],
      ]));
      return [cloud(UNDER_RAIN), ...flakes];
    }
    case "50":
      return lines("wx-mist", [[8, 14, 34, 14], [14, 21, 40, 21], [6, 28, 36, 28], [12, 35, 42, 35]]);
    default:
      return [cloud("translate(2 1) scale(.92)")];
  }
}

// Fills `holder` with the icon for `weather` ({main, icon} with description and tempC when known), named for
// screen readers.
export function drawWeather(holder, weather) {
  holder.replaceChildren();
  holder.removeAttribute("role");
  holder.removeAttribute("aria-label");
  holder.removeAttribute("title");
  delete holder.dataset.icon;
  if (!weather || !/^\d\d[dn]$/.test(weather.icon)) return;
  const label = weather.description || weather.main;
  holder.dataset.icon = weather.icon;
  holder.setAttribute("role", "img");
  holder.setAttribute("aria-label", label);
  holder.title = label;
  holder.append(node("svg", { viewBox: "0 0 48 48", "aria-hidden": "true", focusable: "false", class: `wx wx-${weather.icon}` },
    ...weatherShapes(weather.icon)));
}

export const temperature = (tempC) => `${Number(tempC).toFixed(1)}°C`;
