// Sprout web, Open Market: pictures picked for a product, judged and prepared in the browser before they are sent.

// A picture larger than the server takes, drawn again smaller as a JPEG until it fits, as the app compressed its
// photos before uploading them. The browser applies the EXIF orientation; transparency becomes white.
export async function shrunk(file, limit) {
  const bitmap = await createImageBitmap(file);
  try {
    let scale = Math.min(1, 2000 / Math.max(bitmap.width, bitmap.height));
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const canvas = document.createElement("canvas");
      canvas.width = Math.max(1, Math.round(bitmap.width * scale));
      canvas.height = Math.max(1, Math.round(bitmap.height * scale));
      const context = canvas.getContext("2d");
      context.fillStyle = "#fff";
      context.fillRect(0, 0, canvas.width, canvas.height);
      context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
      for (const quality of [0.85, 0.7]) {
        const blob = await new Promise((resolve) => { canvas.toBlob(resolve, "image/jpeg", quality); });
        if (blob && blob.size <= limit) {
          return new File([blob], `${file.name.replace(/\.[^.]*$/, "")}.jpg`, { type: "image/jpeg" });
        }
      }
      scale *= 0.7;
    }
  } finally {
    bitmap.close();
  }
  throw new Error("could not make the picture small enough");
}

// What a picked file is, judged by its content as the server judges it (not by its name or the type the system
// guessed from the name): "image/jpeg" or "image/png" when it starts like one and the browser can decode it into
// a picture; else why not ("type": neither a JPEG nor a PNG; "decode": it starts like one but is no picture).
export async function inspect(file) {
  let head;
  try {
    head = new Uint8Array(await file.slice(0, 8).arrayBuffer());
  } catch {
    return { problem: "decode" };
  }
  const starts = (bytes) => bytes.every((byte, i) => head[i] === byte);
  const type = starts([0xFF, 0xD8, 0xFF]) ? "image/jpeg"
    : starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) ? "image/png" : null;
  if (!type) return { problem: "type" };
  try {
    const bitmap = await createImageBitmap(file);
    const drawn = bitmap.width > 0 && bitmap.height > 0;
    bitmap.close();
    return drawn ? { type } : { problem: "decode" };
  } catch {
    return { problem: "decode" };
  }
}

// The file as it is sent: named and typed for what it holds (a PNG picked as `photo.jpeg` goes as `photo.png`,
// image/png), the bytes untouched.
export function labelled(file, type) {
  const extension = type === "image/png" ? ".png" : ".jpg";
  const fits = type === "image/png" ? /\.png$/i : /\.jpe?g$/i;
  if (file.type === type && fits.test(file.name)) return file;
  const base = file.name.replace(/\.[^.]*$/, "") || "image";
  return new File([file], base + extension, { type, lastModified: file.lastModified });
}
