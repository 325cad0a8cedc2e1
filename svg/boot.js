/* The replay page's first script: it opens the packed part of the page's data (page.py's `pack`: JSON,
   gzipped, in Z85) with the browser's own DecompressionStream, then adds the page's style and starts
   its script (page.js), both of which travel in the pack: a third of the page's size, gzipped. */
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("diamonds-data").textContent);
  var say = function (text) { document.getElementById("message").textContent = text; };
  if (typeof DecompressionStream === "undefined") {
    say("this browser cannot unpack the game (it needs DecompressionStream: Chrome 80, Safari 16.4, Firefox 113 or later)");
    return;
  }
  /* Z85 (page.py's z85_encode): 5 characters for 4 bytes; the byte count comes first, `1234:…`. */
  var alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";
  var value = {}, packed = data.packed, colon = packed.indexOf(":");
  var length = Number(packed.slice(0, colon)), text = packed.slice(colon + 1);
  for (var a = 0; a < alphabet.length; a += 1) { value[alphabet.charCodeAt(a)] = a; }
  var out = new Uint8Array(text.length / 5 * 4);
  for (var i = 0, j = 0; i < text.length; i += 5, j += 4) {
    var n = 0;
    for (var k = 0; k < 5; k += 1) { n = n * 85 + value[text.charCodeAt(i + k)]; }
    out[j] = (n >>> 24) & 255;
    out[j + 1] = (n >>> 16) & 255;
    out[j + 2] = (n >>> 8) & 255;
    out[j + 3] = n & 255;
  }
  var stream = new Blob([out.subarray(0, length)]).stream().pipeThrough(new DecompressionStream("gzip"));
  new Response(stream).text().then(function (json) {
    var inner = JSON.parse(json);
    var style = document.createElement("style");
    style.textContent = inner.style;
    document.head.appendChild(style);
    window.diamondsPacked = inner;
    var script = document.createElement("script");
    script.textContent = inner.script;
    document.body.appendChild(script);
  }, function (error) { say("the game could not be unpacked: " + error.message); });
}());
