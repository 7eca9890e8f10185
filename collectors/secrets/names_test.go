package secrets

import "testing"

func TestDescribesSetting(t *testing.T) {
	for name, want := range map[string]bool{
		"CUSTOM_MODEL": true, "CUSTOM_API_BASE_URL": true, "OTLP_GCP_WIF_PROVIDER": true, "OTLP_GOOGLE_CLOUD_PROJECT": true,
		"AZURE_CLIENT_ID": true, "AWS_REGION": true, "APP_ID": true,
		"AWS_ROLE_TO_ASSUME": true, "AWS_ROLE_ARN": true, "DEPLOY_ROLE": true, "AWS_SECRET_ROLE_ARN": false, "TOKEN_TO_ASSUME": false,
		"PAT_USERNAME": true, "DEPLOY_USER": true, "BOT_EMAIL": true, "PAT_USER_TOKEN": false,
		"NPM_TOKEN": false, "DEPLOY_KEY": false, "SLACK_WEBHOOK": false, "SENTRY_DSN": false, "AWS_ACCESS_KEY_ID": false,
		"CLIENT_SECRET_ID": false, "GH_PAT": false, "OPENAI_API_KEY": false, "DB_PASSWORD_URL": false, "": false,
	} {
		if got := DescribesSetting(name); got != want {
			t.Errorf("DescribesSetting(%q) = %v, want %v", name, got, want)
		}
	}
}
