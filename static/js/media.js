/* socialsite: pictures, on top of plain pages (without JavaScript each preview links to its full image, a
 * sensitive post's blurred copies too, and the post box sends its files and descriptions in one form).
 *  - a full image opens in a modal dialog over the page; Escape, the Close button or a click outside closes it
 *    and focus goes back to the preview;
 *  - "Show sensitive content" (a <details>, which opens without JavaScript) moves focus to the first image;
 *  - the post box: each chosen image (picked, dropped on the box or pasted into it) gets a preview, a "Describe
 *    this image" box and a Remove button.
 * Clicks are caught on the document, so posts added later (live, "Load more") work the same.
 */
(function () {
  "use strict";

  function closest(element, selector) { return element && element.closest ? element.closest(selector) : null; }

  /* --- the viewer ------------------------------------------------------------------------------------- */

  var viewer = null;
  var opener = null;

  function makeViewer() {
    var dialog = document.createElement("dialog");
    dialog.className = "media-viewer";
    dialog.setAttribute("aria-label", "Image");
    var figure = document.createElement("figure");
    var image = document.createElement("img");
    var caption = document.createElement("figcaption");
    var close = document.createElement("button");
    close.type = "button";
    close.className = "close";
    close.textContent = "Close";
    close.addEventListener("click", function () { dialog.close(); });
    figure.appendChild(image);
    figure.appendChild(caption);
    dialog.appendChild(figure);
    dialog.appendChild(close);
    // A click on the backdrop (the dialog itself, outside its figure) closes it.
    dialog.addEventListener("click", function (event) { if (event.target === dialog) dialog.close(); });
    dialog.addEventListener("close", function () {
      image.removeAttribute("src");
      if (opener && document.contains(opener)) opener.focus();
      opener = null;
    });
    document.body.appendChild(dialog);
    return dialog;
  }

  function openViewer(link) {
    if (!viewer) viewer = makeViewer();
    var preview = link.querySelector("img");
    var image = viewer.querySelector("img");
    image.src = link.getAttribute("href");
    image.alt = preview ? preview.alt : "";
    image.width = parseInt(link.dataset.width, 10) || 0;
    image.height = parseInt(link.dataset.height, 10) || 0;
    viewer.querySelector("figcaption").textContent = image.alt;
    opener = link;
    viewer.showModal();
  }

  document.addEventListener("click", function (event) {
    if (event.defaultPrevented || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var link = closest(event.target, "a[data-media-full]");
    if (link && typeof HTMLDialogElement === "function") {
      event.preventDefault();
      openViewer(link);
    }
  });

  // The summary that was focused disappears once its <details> opens: focus goes to the first image instead.
  document.addEventListener("toggle", function (event) {
    var details = event.target;
    if (!details.classList || !details.classList.contains("sensitive-media") || !details.open) return;
    var first = details.querySelector(".media-items a");
    if (first) first.focus();
  }, true);

  /* --- the post box's images -------------------------------------------------------------------------- */

  var MAX_IMAGES = 4;

  function keptMedia(form) {
    var kept = form.querySelectorAll("input[name=remove]");
    return Array.prototype.some.call(kept, function (box) { return !box.checked; });
  }

  function initComposeMedia(root) {
    Array.prototype.forEach.call((root || document).querySelectorAll("[data-compose-media]"), function (box) {
      if (box.dataset.enhanced) return;
      box.dataset.enhanced = "1";
      var input = box.querySelector("input[type=file]");
      var list = box.querySelector("[data-media-list]");
      var plain = box.querySelector("[data-plain-descriptions]");
      var form = closest(box, "form");
      if (!input || !list || typeof DataTransfer !== "function") return;
      if (plain) plain.remove(); // the numbered boxes are for pages without JavaScript
      var chosen = []; // [{file, description}]
      form.addEventListener("change", function (event) {
        if (event.target.name === "remove") sync();
      });

      function sync() {
        var transfer = new DataTransfer();
        chosen.forEach(function (item) { transfer.items.add(item.file); });
        input.files = transfer.files;
        // An edit form keeps the post's images unless each is ticked Remove.
        form.dataset.hasMedia = chosen.length || keptMedia(form) ? "1" : "";
        form.dispatchEvent(new Event("media-change"));
      }

      function render() {
        list.textContent = "";
        chosen.forEach(function (item, index) {
          var row = document.createElement("div");
          row.className = "compose-media-item";
          var image = document.createElement("img");
          image.alt = "";
          image.src = item.url;
          var label = document.createElement("label");
          var id = (box.dataset.prefix || "compose") + "-image-description-" + (index + 1);
          label.htmlFor = id;
          label.textContent = "Describe this image";
          var text = document.createElement("textarea");
          text.id = id;
          text.name = "description-" + (index + 1);
          text.rows = 2;
          text.maxLength = 1500;
          text.value = item.description;
          text.addEventListener("input", function () { item.description = text.value; });
          var field = document.createElement("div");
          field.appendChild(label);
          field.appendChild(text);
          var remove = document.createElement("button");
          remove.type = "button";
          remove.className = "link";
          remove.textContent = "Remove";
          remove.setAttribute("aria-label", "Remove image " + (index + 1));
          remove.addEventListener("click", function () {
            URL.revokeObjectURL(item.url);
            chosen.splice(index, 1);
            sync();
            render();
            input.focus();
          });
          row.appendChild(image);
          row.appendChild(field);
          row.appendChild(remove);
          list.appendChild(row);
        });
      }

      var error = box.querySelector("[data-media-error]");
      var maxBytes = parseInt(box.dataset.maxBytes, 10) || 0;

      function add(files) {
        // A new choice adds to the images already chosen, up to four; anything but an image is left out, and a
        // file over the size limit is refused here, named, instead of being sent to be refused by the server.
        var tooLarge = [];
        files.forEach(function (file) {
          if (!/^image\//.test(file.type)) return;
          if (maxBytes && file.size > maxBytes) {
            tooLarge.push(file.name);
            return;
          }
          if (chosen.length < MAX_IMAGES && chosen.every(function (item) { return item.file !== file; })) {
            chosen.push({ file: file, description: "", url: URL.createObjectURL(file) });
          }
        });
        if (error) {
          error.textContent = tooLarge.length ? tooLarge.join(", ") + ": " + box.dataset.tooLarge : "";
          error.hidden = !tooLarge.length;
        }
        sync();
        render();
      }

      input.addEventListener("change", function () { add(Array.prototype.slice.call(input.files || [])); });
      // Files chosen before this ran (picked the moment a reply box was swapped in, before htmx's settle step
      // called this; or kept by the browser when it restores a form on Back) are taken as if chosen now.
      if (input.files && input.files.length) add(Array.prototype.slice.call(input.files));
      // Images dropped on the post box or pasted into it join the chosen ones.
      form.addEventListener("dragover", function (event) {
        if (event.dataTransfer && Array.prototype.indexOf.call(event.dataTransfer.types, "Files") >= 0) {
          event.preventDefault();
          form.classList.add("dropping");
        }
      });
      form.addEventListener("dragleave", function () { form.classList.remove("dropping"); });
      form.addEventListener("drop", function (event) {
        form.classList.remove("dropping");
        if (!event.dataTransfer || !event.dataTransfer.files.length) return;
        event.preventDefault();
        add(Array.prototype.slice.call(event.dataTransfer.files));
      });
      form.addEventListener("paste", function (event) {
        var files = event.clipboardData ? Array.prototype.slice.call(event.clipboardData.files || []) : [];
        if (files.length) {
          event.preventDefault();
          add(files);
        }
      });
    });
  }

  function init() {
    initComposeMedia(document);
    if (window.htmx) window.htmx.onLoad(function (root) { initComposeMedia(root); });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
