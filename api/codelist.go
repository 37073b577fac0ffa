package api

// Codes returns every error code of codes.go, in its order: what a test
// that must hold for each code ranges over (TestCodesListed keeps it
// equal to the constants).
func Codes() []string {
	return []string{
		CodeBadRequest, CodeBadJSON, CodeUnknownType, CodeServerBusy, CodeUnauthorized, CodeForbidden, CodeTooManyAttempts, CodeIdleTimeout, CodeShuttingDown, CodeUploadTooLarge, CodeUploadNoMetadata, CodeUploadInProgress, CodeUploadOverflow, CodeUploadChecksum, CodeUploadBadName, CodeUploadTimeout, CodeUploadInvalid, CodeQuotaExceeded, CodeTooLarge, CodeNotFound, CodeUnknownModel, CodeTokenUnknown, CodeTokenExpired, CodeExpired, CodeFileChanged, CodeRangeNotSatisfiable, CodeMethodNotAllowed, CodePermissionUnknown, CodePermissionAnswered, CodePermissionExpired, CodeBadDecision, CodeQuestionUnknown, CodeQuestionAnswered, CodeQuestionExpired, CodeBadAnswer, CodeAgentError, CodeInternal, CodeRDTUnknownToken, CodeRDTExpiredToken, CodeRDTWrongFile, CodeRDTBusy, CodeRDTChecksum, CodeRDTCancelled,
	}
}
