terraform {
  required_version = ">= 1.5"
  required_providers {
    alertrules = {
      source  = "alert-rule-users/alertrules"
      version = "~> 0.1" # the package's version: 0.1.x
    }
  }
}

provider "alertrules" {}
