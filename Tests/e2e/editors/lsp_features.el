;;; lsp_features.el --- the Emacs scenarios of test_editor_lsp_features.py  -*- lexical-binding: t -*-
;; Document symbols through imenu, rename through `eglot-rename', `memo.new' through
;; `eglot-execute-command', each as an Emacs 28 + eglot 1.9 user does.  Loaded after
;; harness.el and scenarios.el (Tests/e2e/editors.py, MEMO_EXTRA_EL).  eglot 1.9 shows no
;; code lenses and no inlay hints: the test asks for those through a raw client.

(require 'imenu)

(defun memo-test-imenu ()
  "The current buffer's imenu index (eglot's `imenu-create-index-function'), flattened to
\"GROUP/…/NAME\" strings with the line each entry goes to."
  (let (entries)
    (cl-labels ((walk (prefix index)
                  (dolist (entry index)
                    (if (imenu--subalist-p entry)
                        (walk (concat prefix (car entry) "/") (cdr entry))
                      (push `(("name" . ,(concat prefix (car entry)))
                              ("line" . ,(line-number-at-pos (let ((place (cdr entry)))
                                                               (if (markerp place) (marker-position place) place)))))
                            entries)))))
      (walk "" (funcall imenu-create-index-function)))
    (vconcat (nreverse entries))))

(defun memo-scenario-document-symbols ()
  (with-current-buffer (memo-test-open (memo-test-file "outline.md"))
    (memo-test-record "outline" (memo-test-imenu))
    (memo-test-search "#1" 1)
    (call-interactively #'xref-find-definitions))
  (set-buffer (window-buffer (selected-window)))
  (memo-test-wait (lambda () eglot--managed-mode) 5)
  (memo-test-record "memo file" (memo-test-imenu)))

(defun memo-scenario-rename ()
  "Go to the definition of #1 (its file stays open), back to the note, then M-x eglot-rename
on #1 with a new title."
  (let ((note (memo-test-open (memo-test-file "about.md"))) file)
    (with-current-buffer note
      (memo-test-search "#1" 1)
      (call-interactively #'xref-find-definitions))
    (setq file (window-buffer (selected-window)))
    (with-current-buffer file (memo-test-wait (lambda () eglot--managed-mode) 5))
    (switch-to-buffer note)
    (with-current-buffer note
      (memo-test-search "#1" 1)
      (eglot-rename "Groceries for the week")
      (memo-test-settle))
    (memo-test-record "file text" (memo-test-buffer-text file))
    (memo-test-record "note text" (memo-test-buffer-text note))
    ;; then a line added to the memo's file, and C-x C-s
    (switch-to-buffer file)
    (with-current-buffer file
      (goto-char (point-max))
      (insert "\nand eggs")
      (save-buffer)
      (memo-test-settle)
      (memo-test-record "errors after saving" (memo-test-flymake 1)))))

;; The error eglot shows (the server's message), or nil when the rename was applied.
(defun memo-test-rename-error (name)
  (condition-case err
      (progn (eglot-rename name) nil)
    (error (format "%S" err))))

(defun memo-scenario-rename-unsaved-title ()
  "Go to the definition of #1, type a new first line in its file and do not save, then
M-x eglot-rename on #1 in the note: refused, the typed line kept."
  (let ((note (memo-test-open (memo-test-file "about.md"))) file)
    (with-current-buffer note
      (memo-test-search "#1" 1)
      (call-interactively #'xref-find-definitions))
    (setq file (window-buffer (selected-window)))
    (with-current-buffer file
      (memo-test-wait (lambda () eglot--managed-mode) 5)
      (goto-char (point-min))
      (insert "Draft heading typed\n\n")
      (memo-test-idle))
    (switch-to-buffer note)
    (with-current-buffer note
      (memo-test-search "#1" 1)
      (memo-test-record "refusal" (memo-test-rename-error "Groceries for the week"))
      (memo-test-settle))
    (memo-test-record "file text" (memo-test-buffer-text file))))

(defun memo-scenario-rename-busy-store ()
  "M-x eglot-rename on #1 while another process (the sqlite3 shell) holds the store's
write lock: the server's busy message, before eglot's own 10 s timeout."
  (let ((note (memo-test-open (memo-test-file "about.md")))
        (lock (start-process "lock" "*lock*" "sqlite3" memo-test-store))
        started)
    (process-send-string lock "BEGIN IMMEDIATE;\nSELECT 'locked';\n")
    (memo-test-wait (lambda () (with-current-buffer "*lock*" (string-match-p "locked" (buffer-string)))) 10)
    (with-current-buffer note
      (memo-test-search "#1" 1)
      (setq started (float-time))
      (memo-test-record "refusal" (memo-test-rename-error "Groceries for the week"))
      (memo-test-record "seconds" (- (float-time) started)))
    (process-send-string lock "ROLLBACK;\n.quit\n")
    (memo-test-wait (lambda () (not (process-live-p lock))) 10)))

(defun memo-scenario-new-memo ()
  "M-: (eglot-execute-command (eglot-current-server) \"memo.new\" [\"A fresh idea\"]):
eglot 1.9 does not open documents for the server (window/showDocument), so the server's
message, which eglot shows in the echo area and *Messages*, names the file."
  (with-current-buffer (memo-test-open (memo-test-file "about.md"))
    (let ((answer (eglot-execute-command (eglot-current-server) "memo.new" ["A fresh idea"])))
      (memo-test-record "answer uri" (plist-get answer :uri)))
    (let ((message (memo-test-wait
                    (lambda ()
                      (with-current-buffer (messages-buffer)
                        (save-excursion
                          (goto-char (point-max))
                          (and (re-search-backward "Added memo #[0-9]+; its file is \\(.*\\)$" nil t)
                               (match-string-no-properties 0))))))))
      (memo-test-record "message" (or message nil))
      (when (and message (string-match "its file is \\(.*\\)$" message))
        (with-current-buffer (find-file-noselect (match-string 1 message))
          (memo-test-record "opened" (memo-test-buffer-text)))))))

(defun memo-scenario-sealed-definition ()
  "M-. (xref-find-definitions) on #1 with an encrypted store: no file opens (its memos have
none), and the error eglot shows is the server's answer, which says why."
  (let ((note (memo-test-open (memo-test-file "about.md"))))
    (with-current-buffer note
      (memo-test-search "#1" 1)
      (memo-test-record "shown" (condition-case err
                                    (progn (call-interactively #'xref-find-definitions) nil)
                                  (error (format "%S" err))))
      (memo-test-settle))
    (memo-test-record "still in the note" (eq (window-buffer (selected-window)) note))))

(provide 'memo-test-lsp-features)
