;;; memo_files.el --- the memos' own files in Emacs: saves after a reconnect, a reload, a busy store  -*- lexical-binding: t -*-
;; Loaded after harness.el and scenarios.el by Tests/e2e/test_editor_memo_files.py; each
;; memo-scenario-NAME records what Emacs shows and the test asserts.

(defun memo-files-visit-memo-1 ()
  "Goes to the definition of #1 in about.md, as the user does: the buffer of #1's own file,
managed by eglot."
  (with-current-buffer (memo-test-open (memo-test-file "about.md"))
    (memo-test-search "#1" 1)
    (call-interactively #'xref-find-definitions))
  (set-buffer (window-buffer (selected-window)))
  (unless (memo-test-wait (lambda () eglot--managed-mode) 5) (error "eglot does not manage #1's file"))
  (current-buffer))

(defun memo-files-errors ()
  "The messages of the errors flymake shows in the current buffer (the server has answered
everything before)."
  (memo-test-settle)
  (vconcat (delq nil (mapcar (lambda (d) (and (equal (cdr (assoc "severity" d)) "error") (cdr (assoc "message" d))))
                             (memo-test-flymake 1 #'identity)))))

(defun memo-files-append (suffix)
  "Types SUFFIX at the end of the memo's first line (markdown-mode ends a saved file with a
line break)."
  (goto-char (point-min))
  (end-of-line)
  (insert suffix))

(defun memo-files-save (suffix key)
  "Appends SUFFIX and saves; records the errors then shown under KEY."
  (memo-files-append suffix)
  (save-buffer)
  (memo-test-record key (memo-files-errors)))

(defun memo-scenario-reconnect ()
  (with-current-buffer (memo-files-visit-memo-1)
    (memo-files-append " and eggs")
    (let ((old (eglot-current-server)))
      (eglot-reconnect old t)
      (memo-test-record "reconnected"
                        (if (memo-test-wait (lambda () (and eglot--managed-mode (eglot-current-server)
                                                            (not (eq old (eglot-current-server)))))
                                            10)
                            t :json-false)))
    (save-buffer)
    (memo-test-record "first save" (memo-files-errors))
    (memo-files-save " and jam" "second save")))

(defun memo-scenario-revert ()
  (with-current-buffer (memo-files-visit-memo-1)
    ;; Another program edits the file on disk; the user reloads it.
    (write-region "Buy milk and bread @errand, edited on disk\n" nil buffer-file-name)
    (revert-buffer t t)
    (memo-test-record "reloaded" (memo-test-buffer-text))
    (unless (memo-test-wait (lambda () eglot--managed-mode) 5) (error "eglot does not manage the reloaded file"))
    (memo-files-save " and in Emacs" "save")))

(defun memo-scenario-busy ()
  (with-current-buffer (memo-files-visit-memo-1)
    ;; Another process holds the store's write lock while the user saves.
    (let ((holder (make-process :name "lock" :command (list "sqlite3" memo-test-store)
                                :connection-type 'pipe :buffer (generate-new-buffer "*lock*"))))
      (process-send-string holder "BEGIN IMMEDIATE;\nSELECT 'locked';\n")
      (unless (memo-test-wait (lambda () (with-current-buffer (process-buffer holder)
                                           (string-match-p "locked" (buffer-string))))
                              5)
        (error "sqlite3 did not take the store's write lock"))
      (memo-files-append ", saved while busy")
      (save-buffer)
      (memo-test-record "busy save"
                        (vconcat (mapcar (lambda (d) (cdr (assoc "message" d)))
                                         (memo-test-flymake 20 (lambda (list) (> (length list) 0))))))
      (process-send-string holder "ROLLBACK;\n.quit\n")
      (memo-test-wait (lambda () (not (process-live-p holder))) 5))
    ;; The user reloads the file and saves again.
    (revert-buffer t t)
    (unless (memo-test-wait (lambda () eglot--managed-mode) 5) (error "eglot does not manage the reloaded file"))
    (memo-files-save ", then again" "save after")))
