;;; scenarios.el --- what the Emacs tests do in the editor  -*- lexical-binding: t -*-
;; Each memo-scenario-NAME works on the files Tests/e2e/test_emacs.py wrote into
;; $MEMO_TEST_DIR and records what Emacs shows (see harness.el); the test asserts.

(defun memo-test-file (name) (expand-file-name name (getenv "MEMO_TEST_DIR")))

(defun memo-test-links ()
  "The text each documentLink of the current buffer covers, and its target (eglot 1.9
has no command for document links, so this asks through eglot's connection)."
  (vconcat
   (mapcar (lambda (link)
             `(("line" . ,(1+ (plist-get (plist-get (plist-get link :range) :start) :line)))
               ("text" . ,(memo-test-lsp-range-text (plist-get link :range)))
               ("target" . ,(plist-get link :target))))
           (memo-test-lsp-request :textDocument/documentLink
                                  `(:textDocument ,(eglot--TextDocumentIdentifier))))))

(defun memo-scenario-diagnostics ()
  (with-current-buffer (memo-test-open (memo-test-file "note.md"))
    (memo-test-record "note" (memo-test-flymake)))
  (with-current-buffer (memo-test-open (memo-test-file "commands.memo"))
    (memo-test-record "commands" (memo-test-flymake))))

(defun memo-scenario-hover ()
  (with-current-buffer (memo-test-open (memo-test-file "note.md"))
    (memo-test-search "#1" 1)
    (memo-test-record "eldoc" (memo-test-eldoc))))

(defun memo-scenario-definition ()
  (with-current-buffer (memo-test-open (memo-test-file "about.md"))
    (memo-test-search "#1" 1)
    (call-interactively #'xref-find-definitions))
  ;; xref visited the memo's file and showed it in the selected window
  (set-buffer (window-buffer (selected-window)))
  (memo-test-record "file" (or buffer-file-name nil))
  (memo-test-record "text" (memo-test-buffer-text))
  (memo-test-record "attached" (if (memo-test-wait (lambda () eglot--managed-mode) 5) t :json-false))
  (goto-char (point-max))
  (insert " and eggs")
  (save-buffer)
  ;; the server applies didSave; let it answer anything it sends before the shutdown
  (memo-test-settle)
  (memo-test-record "saved" (memo-test-buffer-text)))

(defun memo-test-completion-case (text point-offset choose)
  "Types TEXT on a new last line, moves back POINT-OFFSET characters, completes and picks
the first candidate CHOOSE accepts; records the candidates, the choice and the line."
  (goto-char (point-max))
  (insert text)
  (backward-char point-offset)
  (let ((chosen (memo-test-complete choose)))
    (prog1 `(("candidates" . ,(vconcat memo-test-candidates))
             ("region" . ,memo-test-completion-region)
             ("chosen" . ,(or chosen nil))
             ("line" . ,(buffer-substring-no-properties (line-beginning-position) (line-end-position))))
      (goto-char (point-max))
      (insert "\n"))))

;; Types $MEMO_TEST_TEXT on a new line of $MEMO_TEST_FILE, moves back $MEMO_TEST_BACK
;; characters, completes and picks $MEMO_TEST_CHOOSE.
(defun memo-scenario-completion ()
  (with-current-buffer (memo-test-open (memo-test-file (getenv "MEMO_TEST_FILE")))
    (let ((choose (getenv "MEMO_TEST_CHOOSE")))
      (dolist (entry (memo-test-completion-case (getenv "MEMO_TEST_TEXT")
                                                (string-to-number (getenv "MEMO_TEST_BACK"))
                                                (lambda (candidate) (string= candidate choose))))
        (memo-test-record (car entry) (cdr entry))))))

(defun memo-scenario-code-actions ()
  (with-current-buffer (memo-test-open (memo-test-file "selection.md"))
    (memo-test-search "move me, please")
    (memo-test-code-action (point) (line-end-position) "Move selection to a memo")
    (memo-test-record "move offered" (cdr (assoc "offered" memo-test-results)))
    (memo-test-record "after move" (memo-test-buffer-text))
    (memo-test-search "save me too")
    (memo-test-code-action (point) (line-end-position) "Save selection as memo")
    (memo-test-record "save offered" (cdr (assoc "offered" memo-test-results)))
    (memo-test-record "after save" (memo-test-buffer-text))
    (memo-test-record "modified" (if (buffer-modified-p) t :json-false))))

(defun memo-test-after-deleting (file search offset)
  "Opens FILE, deletes the character OFFSET characters into SEARCH with `delete-char',
lets eglot send the change, then records what the server says about the line now."
  (with-current-buffer (memo-test-open (memo-test-file file))
    (memo-test-flymake)                 ; the first diagnostics are in
    (memo-test-search search offset)
    (delete-char 1)
    (memo-test-idle)
    `(("line" . ,(buffer-substring-no-properties (line-beginning-position) (line-end-position)))
      ("diagnostics" . ,(memo-test-flymake 3 (lambda (ds) (and (> (length ds) 0)
                                                               (equal (cdr (assoc "text" (aref ds 0))) "#99")))))
      ("links" . ,(memo-test-links))
      ("hover" . ,(progn (memo-test-search "#1" 1) (or (memo-test-eldoc) nil))))))

;; Deletes, with `delete-char', the character $MEMO_TEST_OFFSET characters into the first
;; $MEMO_TEST_SEARCH of $MEMO_TEST_FILE.
(defun memo-scenario-graphemes ()
  (dolist (entry (memo-test-after-deleting (getenv "MEMO_TEST_FILE") (getenv "MEMO_TEST_SEARCH")
                                           (string-to-number (getenv "MEMO_TEST_OFFSET"))))
    (memo-test-record (car entry) (cdr entry))))

(defun memo-scenario-not-references ()
  (with-current-buffer (memo-test-open (memo-test-file "not-references.md"))
    (memo-test-record "markdown diagnostics" (memo-test-flymake))
    (memo-test-record "markdown links" (memo-test-links)))
  (with-current-buffer (memo-test-open (memo-test-file "style.css"))
    (memo-test-record "css diagnostics" (memo-test-flymake))
    (memo-test-record "css links" (memo-test-links))))

(defun memo-scenario-symbols-and-hints ()
  (with-current-buffer (memo-test-open (memo-test-file "links.md"))
    ;; eglot 1.9 has no inlay hints: asked through its connection
    (memo-test-record
     "hints"
     (vconcat (mapcar (lambda (hint) (plist-get hint :label))
                      (memo-test-lsp-request :textDocument/inlayHint
                                             `(:textDocument ,(eglot--TextDocumentIdentifier)
                                               :range (:start (:line 0 :character 0) :end (:line 1 :character 0)))))))
    (memo-test-record "links" (memo-test-links))
    ;; workspace symbols: M-x xref-find-apropos, which eglot's xref backend answers
    (xref-find-apropos "dentist")
    (memo-test-record "apropos" (let ((buffer (get-buffer "*xref*")))
                                  (if buffer (memo-test-buffer-text buffer) nil)))))
